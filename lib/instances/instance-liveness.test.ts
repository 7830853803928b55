import { ManualClock } from '@warden/consumer/testing';
import { describe, expect, it } from 'vitest';
import {
  compareInstances,
  goneAfterMs,
  INSTANCE_RETENTION_MS,
  instanceState,
  isListed,
  LIVE_BEYOND_RETENTION_INTERVAL_MS,
  type InstanceState,
} from './instance-liveness';

const START = Date.parse('2026-12-07T12:00:00Z');

describe('instanceState', () => {
  it('keeps a running instance live for three report intervals of silence, then calls it gone', () => {
    const clock = new ManualClock(START);
    const report = { status: 'running', reportedAtMs: START, stateIntervalMs: 10_000 };
    expect(instanceState(report, clock.now())).toBe('live');
    clock.advance(30_000);
    expect(instanceState(report, clock.now())).toBe('live');
    clock.advance(1);
    expect(instanceState(report, clock.now())).toBe('gone');
  });

  it('waits at least 15 s whatever the interval, so a fast reporter is not gone on one slow round trip', () => {
    const clock = new ManualClock(START);
    const report = { status: 'running', reportedAtMs: START, stateIntervalMs: 1_000 };
    expect(goneAfterMs(1_000)).toBe(15_000);
    clock.advance(14_999);
    expect(instanceState(report, clock.now())).toBe('live');
    clock.advance(1_002);
    expect(instanceState(report, clock.now())).toBe('gone');
    // The default interval of 5 s: 3 x 5 s is exactly the floor.
    expect(goneAfterMs(5_000)).toBe(15_000);
    expect(goneAfterMs(6_000)).toBe(18_000);
  });

  it('a newer report brings a gone instance back', () => {
    const clock = new ManualClock(START);
    clock.advance(60_000);
    expect(instanceState({ status: 'running', reportedAtMs: START, stateIntervalMs: 5_000 }, clock.now())).toBe('gone');
    expect(
      instanceState({ status: 'running', reportedAtMs: clock.now() - 2_000, stateIntervalMs: 5_000 }, clock.now()),
    ).toBe('live');
  });

  it('is stopped when the last report was a clean stop, however recent', () => {
    expect(instanceState({ status: 'stopped', reportedAtMs: START, stateIntervalMs: 5_000 }, START)).toBe('stopped');
    expect(instanceState({ status: 'stopped', reportedAtMs: START, stateIntervalMs: 5_000 }, START + 600_000)).toBe(
      'stopped',
    );
  });

  it('reads a report stamped ahead of our clock (its clock runs fast) as live', () => {
    expect(instanceState({ status: 'running', reportedAtMs: START + 90_000, stateIntervalMs: 5_000 }, START)).toBe(
      'live',
    );
  });
});

describe('isListed', () => {
  it('lists a gone or stopped instance for an hour after its last report, then leaves it out', () => {
    const clock = new ManualClock(START);
    const gone = { status: 'running', reportedAtMs: START, stateIntervalMs: 5_000 };
    const stopped = { status: 'stopped', reportedAtMs: START, stateIntervalMs: 5_000 };
    clock.advance(INSTANCE_RETENTION_MS);
    expect(isListed(gone, clock.now())).toBe(true);
    expect(isListed(stopped, clock.now())).toBe(true);
    clock.advance(1);
    expect(isListed(gone, clock.now())).toBe(false);
    expect(isListed(stopped, clock.now())).toBe(false);
  });

  it('always lists a live instance, even one that reports less often than the retention allows', () => {
    const rare = {
      status: 'running',
      reportedAtMs: START,
      stateIntervalMs: LIVE_BEYOND_RETENTION_INTERVAL_MS + 60_000,
    };
    const at = START + INSTANCE_RETENTION_MS + 60_000;
    expect(instanceState(rare, at)).toBe('live');
    expect(isListed(rare, at)).toBe(true);
    // At the bound itself three intervals equal the retention: silent longer than that, it is gone and left out.
    const bound = { ...rare, stateIntervalMs: LIVE_BEYOND_RETENTION_INTERVAL_MS };
    expect(isListed(bound, at)).toBe(false);
  });
});

describe('compareInstances', () => {
  const instance = (instanceId: string, state: InstanceState, startedAtMs: number, reportedAtMs: number) => ({
    instanceId,
    state,
    startedAtMs,
    reportedAtMs,
  });

  it('puts live ones first, newest started first, then the others by their last report, newest first', () => {
    const list = [
      instance('stopped-early', 'stopped', START - 90_000, START - 50_000),
      instance('live-old', 'live', START - 80_000, START - 1_000),
      instance('gone-late', 'gone', START - 70_000, START - 20_000),
      instance('live-new', 'live', START - 10_000, START - 3_000),
      instance('stopped-late', 'stopped', START - 60_000, START - 10_000),
    ];
    expect([...list].sort(compareInstances).map((i) => i.instanceId)).toEqual([
      'live-new',
      'live-old',
      'stopped-late',
      'gone-late',
      'stopped-early',
    ]);
  });

  it('keeps the live order stable while their reports leapfrog each other, ties by id', () => {
    const a = instance('b@h/2', 'live', START, START - 1_000);
    const b = instance('a@h/1', 'live', START, START - 4_000);
    expect([a, b].sort(compareInstances).map((i) => i.instanceId)).toEqual(['a@h/1', 'b@h/2']);
    const later = [
      { ...a, reportedAtMs: START - 5_000 },
      { ...b, reportedAtMs: START },
    ];
    expect(later.sort(compareInstances).map((i) => i.instanceId)).toEqual(['a@h/1', 'b@h/2']);
  });
});
