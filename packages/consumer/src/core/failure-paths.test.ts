import { describe, expect, it } from 'vitest';
import { defaultClassifyError } from './classify-error.js';
import { zeroCounters } from './core-counters.js';
import { FailurePaths } from './failure-paths.js';
import type { RoutingPolicy } from './failure-routing.js';
import type { DetachMode, RecordEntry } from './record-entry.js';
import { ManualClock } from './testing/fake-clock.js';
import { permanentError, transientError } from './testing/harness.js';
import { recordedEvents, ROUTING } from './testing/part-fakes.js';
import { deliverEntry, ownedPartition } from './testing/tracked-records.js';
import type { DeadLetterInfo, ErrorClass } from './types.js';

type Entry = RecordEntry<string>;

function pathsOf(
  routing: Partial<RoutingPolicy> = {},
  classifyError: (e: unknown) => ErrorClass = defaultClassifyError,
) {
  const clock = new ManualClock(1_000);
  const counters = zeroCounters();
  const { events, emitted } = recordedEvents();
  const status = { closed: false };
  const log: string[] = [];
  const held: Array<{ entry: Entry; info: DeadLetterInfo }> = [];
  const detached: Array<{ entry: Entry; mode: DetachMode; reason: string | null }> = [];
  const paths = new FailurePaths<string>({
    clock,
    routing: { ...ROUTING, ...routing },
    classifyError,
    counters,
    events,
    status,
    release: { detachEntry: (entry, mode, reason) => void detached.push({ entry, mode, reason }) },
    scheduler: {
      startFailurePath: (entry) => void log.push(`start ${entry.phase}@${entry.offset}`),
      retryDue: (entry) => void log.push(`retry due@${entry.offset}`),
    },
    quarantines: { hold: (entry, info) => void held.push({ entry, info }) },
  });
  return { clock, counters, emitted, status, log, held, detached, paths };
}

/** A record whose handler ran `attempts` times. */
function ranEntry(attempts = 1): Entry {
  const entry = deliverEntry(ownedPartition(), 4);
  entry.status = 'running';
  entry.handleAttempts = attempts;
  return entry;
}

describe('FailurePaths.admissionFailed', () => {
  it("quarantines under 'pause', with the admission's reason and no attempts", () => {
    const { counters, emitted, held, log, paths } = pathsOf();
    const entry = deliverEntry(ownedPartition(), 1);
    paths.admissionFailed(entry, 'result key missing', 'missing-result-key');
    expect(held).toEqual([
      { entry, info: { errorClass: 'missing-result-key', reason: 'result key missing', attempts: 0 } },
    ]);
    expect(log).toEqual([]);
    expect(counters.admissionFailures).toBe(1);
    expect(emitted).toEqual([
      {
        type: 'admission-failed',
        topic: 'events',
        partition: 0,
        offset: '1',
        reason: 'result key missing',
        errorClass: 'missing-result-key',
      },
    ]);
  });

  it("dead-letters under 'dead-letter': the write starts at once", () => {
    const { held, log, paths } = pathsOf({ quarantinePolicy: 'dead-letter' });
    const entry = deliverEntry(ownedPartition(), 1);
    paths.admissionFailed(entry, 'bad json', 'decode');
    expect(held).toEqual([]);
    expect(log).toEqual(['start dead-letter@1']);
    expect(entry).toMatchObject({
      phase: 'dead-letter',
      phaseAttempts: 0,
      deadLetterInfo: { errorClass: 'decode', reason: 'bad json', attempts: 0 },
    });
  });
});

describe('FailurePaths.failed: retries', () => {
  it('a transient handler failure waits in its lane on the clock, then the scheduler takes it again', async () => {
    const { clock, counters, emitted, log, paths } = pathsOf();
    const entry = ranEntry();
    const error = transientError();
    paths.failed(entry, 'handle', error);
    expect(entry.status).toBe('retry-wait');
    expect(counters.retries).toBe(1);
    expect(emitted).toEqual([
      {
        type: 'retry-scheduled',
        topic: 'events',
        partition: 0,
        offset: '4',
        phase: 'handle',
        attempt: 1,
        delayMs: 50,
        error,
      },
    ]);
    await clock.tick(49);
    expect(log).toEqual([]);
    await clock.tick(1);
    expect(log).toEqual(['retry due@4']);
    expect(entry.retryTimer).toBeNull();
  });

  it('a first retry that draws no delay is due at once; later ones wait for the clock', () => {
    const { clock, log, paths } = pathsOf({ random: () => 0 });
    const entry = ranEntry(1);
    paths.failed(entry, 'handle', transientError());
    expect(log).toEqual(['retry due@4']);
    entry.status = 'running';
    entry.handleAttempts = 2;
    paths.failed(entry, 'handle', transientError());
    expect(log).toEqual(['retry due@4']);
    clock.advance(0);
    expect(log).toEqual(['retry due@4', 'retry due@4']);
  });

  it('a transient failure of a failure path restarts that path, counting its own attempts', () => {
    const { clock, emitted, log, paths } = pathsOf();
    const entry = ranEntry(3);
    entry.phase = 'dead-letter';
    entry.phaseAttempts = 2;
    paths.failed(entry, 'dead-letter', transientError());
    expect(emitted[0]).toMatchObject({ phase: 'dead-letter', attempt: 2, delayMs: 100 });
    clock.advance(100);
    expect(log).toEqual(['start dead-letter@4']);
  });

  it('a due retry does nothing once the record no longer waits or its partition was revoked', () => {
    const { clock, log, paths } = pathsOf();
    const released = ranEntry();
    const revoked = ranEntry();
    paths.failed(released, 'handle', transientError());
    paths.failed(revoked, 'handle', transientError());
    released.status = 'released';
    revoked.owner.revoked = true;
    clock.advance(1_000);
    expect(log).toEqual([]);
  });

  it('arms no retry timer once the core closed', () => {
    const { clock, counters, status, paths } = pathsOf();
    status.closed = true;
    const entry = ranEntry();
    paths.failed(entry, 'handle', transientError());
    expect([entry.status, counters.retries, clock.pendingTimers]).toEqual(['retry-wait', 1, 0]);
  });
});

describe('FailurePaths.failed: permanent failures', () => {
  it('publishes the failure result when the port exists; the handler never runs again', () => {
    const { counters, emitted, log, held, paths } = pathsOf({ hasFailureResult: true });
    const entry = ranEntry(1);
    const error = permanentError();
    paths.failed(entry, 'handle', error);
    expect(log).toEqual(['start permanent-failure@4']);
    expect(held).toEqual([]);
    expect(entry).toMatchObject({ phase: 'permanent-failure', phaseAttempts: 0 });
    expect(entry.failure).toEqual({ error, reason: 'TypeError: vector dimension mismatch' });
    expect(counters.permanentFailures).toBe(1);
    expect(emitted).toEqual([
      { type: 'permanent-failure', topic: 'events', partition: 0, offset: '4', phase: 'handle', error },
    ]);
  });

  it("quarantines without a failure result under 'pause', naming the handler's failure", () => {
    const { held, paths } = pathsOf();
    const entry = ranEntry(2);
    paths.failed(entry, 'handle', permanentError());
    expect(held).toEqual([
      {
        entry,
        info: {
          errorClass: 'permanent',
          reason: 'handler failed permanently: TypeError: vector dimension mismatch',
          attempts: 2,
        },
      },
    ]);
  });

  it('quarantines when the dead-letter write fails permanently, whatever the policy', () => {
    const { counters, held, paths } = pathsOf({ quarantinePolicy: 'dead-letter' });
    const entry = ranEntry(1);
    entry.phase = 'dead-letter';
    entry.deadLetterInfo = { errorClass: 'decode', reason: 'bad json', attempts: 0 };
    paths.failed(entry, 'dead-letter', permanentError('topic does not exist'));
    expect(held[0]?.info.reason).toMatch(/^dead-letter write failed permanently: .*topic does not exist \(bad json\)$/);
    expect(counters.permanentFailures).toBe(0); // counted once, for the handler's failure
  });

  it('a classifier that throws counts as permanent', () => {
    const { held, counters, paths } = pathsOf({}, () => {
      throw new Error('classifier bug');
    });
    paths.failed(ranEntry(), 'handle', transientError());
    expect(held).toHaveLength(1);
    expect(counters.retries).toBe(0);
  });
});

describe('FailurePaths.deadLetterStalled', () => {
  it('takes the record over: its call ignored, the stalled dead-letter write started', () => {
    const { counters, emitted, detached, log, paths } = pathsOf();
    const entry = ranEntry(3);
    paths.deadLetterStalled(entry, 60_000);
    expect(detached).toEqual([{ entry, mode: 'ignore', reason: 'record dead-lettered as stalled' }]);
    expect(counters.stallDeadLetters).toBe(1);
    expect(emitted).toEqual([{ type: 'stall-dead-letter', topic: 'events', partition: 0, offset: '4', ageMs: 60_000 }]);
    expect(log).toEqual(['start dead-letter@4']);
    expect(entry.deadLetterInfo).toEqual({
      errorClass: 'stalled',
      reason: 'no progress for 60000 ms in phase handle after 3 attempts',
      attempts: 3,
    });
  });
});
