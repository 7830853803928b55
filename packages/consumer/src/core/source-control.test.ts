import { describe, expect, it } from 'vitest';
import type { RoutingPolicy } from './failure-routing.js';
import { SourceControl, type ControlledPartition } from './source-control.js';
import { FakeSource } from './testing/fake-source.js';
import type { CoreEvent } from './types.js';

const ROUTING: RoutingPolicy = {
  quarantinePolicy: 'pause',
  hasFailureResult: true,
  hasDeadLetter: true,
  retry: { baseMs: 100, maxMs: 1000 },
  random: () => 0.5,
};

function partition(overrides: Partial<ControlledPartition> = {}): ControlledPartition {
  return {
    topic: 'events',
    partition: 0,
    tp: { topic: 'events', partition: 0 },
    quarantine: null,
    backpressured: false,
    sourcePaused: false,
    ...overrides,
  };
}

function control() {
  const source = new FakeSource();
  const events: CoreEvent[] = [];
  let fatal: string | null = null;
  const sourceControl = new SourceControl(
    source,
    ROUTING,
    { isFatal: () => fatal !== null, setFatal: (reason) => (fatal = reason) },
    (event) => events.push(event),
  );
  return { source, events, sourceControl, fatal: () => fatal };
}

describe('SourceControl.sync', () => {
  it('pauses while quarantined or backpressured and resumes after, one call per change', () => {
    const { source, sourceControl } = control();
    const tp = partition({ backpressured: true });
    sourceControl.sync(tp);
    sourceControl.sync(tp);
    expect(source.isPaused(tp.tp)).toBe(true);
    const quarantined = { ...tp, backpressured: false, quarantine: {} };
    sourceControl.sync(quarantined);
    expect(quarantined.sourcePaused).toBe(true);
    const free = { ...quarantined, quarantine: null };
    sourceControl.sync(free);
    sourceControl.sync(free);
    expect(source.isPaused(tp.tp)).toBe(false);
    expect([source.pauseCalls(tp.tp, 'pause'), source.pauseCalls(tp.tp, 'resume')]).toEqual([1, 1]);
  });

  it('a failed pause is fatal and the partition is not marked paused', () => {
    const { source, sourceControl, fatal } = control();
    source.failNext.pause = new Error('consumer not running');
    const tp = partition({ backpressured: true });
    sourceControl.sync(tp);
    expect(fatal()).toBe('pause of events[0] failed: Error: consumer not running');
    expect(tp.sourcePaused).toBe(false);
  });

  it('a failed resume is fatal (a partition silently left paused is a stall nobody sees)', () => {
    const { source, sourceControl, fatal } = control();
    source.failNext.resume = new Error('boom');
    const tp = partition({ sourcePaused: true });
    sourceControl.sync(tp);
    expect(fatal()).toMatch(/^resume of events\[0\] failed/);
    expect(tp.sourcePaused).toBe(true);
  });

  it('resumes nothing once the core is fatal', () => {
    const { source, sourceControl } = control();
    source.failNext.seek = new Error('boom');
    sourceControl.seek(partition(), '5');
    sourceControl.sync(partition({ sourcePaused: true }));
    expect(source.pauseCalls({ topic: 'events', partition: 0 }, 'resume')).toBe(0);
  });
});

describe('SourceControl.seek', () => {
  it('seeks, and reports a failure as false with the core fatal', () => {
    const { source, sourceControl, fatal } = control();
    expect(sourceControl.seek(partition(), '7')).toBe(true);
    source.failNext.seek = new Error('not assigned');
    expect(sourceControl.seek(partition(), '9')).toBe(false);
    expect(source.seeks()).toEqual(['7', '9']);
    expect(fatal()).toBe('seek of events[0] to 9 failed: Error: not assigned');
  });
});

describe('SourceControl.release', () => {
  it('resumes a paused partition being revoked; a failure there is reported, not fatal', () => {
    const { source, sourceControl, events, fatal } = control();
    const paused = partition({ sourcePaused: true, quarantine: {} });
    source.failNext.resume = new Error('gone');
    sourceControl.release(paused);
    expect(fatal()).toBeNull();
    expect(events).toMatchObject([{ type: 'source-call-failed', topic: 'events', partition: 0, call: 'resume' }]);

    sourceControl.release(paused);
    expect(paused.sourcePaused).toBe(false);
    sourceControl.release(partition());
    expect(source.pauseCalls(paused.tp, 'resume')).toBe(2);
  });
});
