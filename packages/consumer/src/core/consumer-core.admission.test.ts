import { describe, expect, it } from 'vitest';
import type { QuarantineInfo, TopicPartition } from './types.js';
import { createHarness, makeRecord, makeRecords, permanentError, tp, transientError } from './testing/harness.js';

describe('ConsumerCore admission and quarantine', () => {
  it('quarantines a record failing admission before it takes a slot; other partitions keep flowing', async () => {
    const quarantines: QuarantineInfo[] = [];
    const h = createHarness({
      maxInFlight: 1,
      ordering: 'partition',
      assign: [tp(0), tp(1)],
      onQuarantine: (q) => {
        quarantines.push(q);
      },
    });

    // The only slot is busy with p0@0 when the bad record arrives: the quarantine does not wait for it.
    const result = h.core.deliver([
      makeRecord(0),
      makeRecord(1, { invalid: true, key: 'k', value: 'no-id' }),
      makeRecord(2),
    ]);
    expect(result).toEqual({ accepted: 2, ignored: 0, dropped: 1 });
    expect(h.started(0)).toEqual(['0']);
    expect(h.source.isPaused(tp(0))).toBe(true);
    expect(h.source.seeks(tp(0))).toEqual(['1']);
    expect(quarantines).toHaveLength(1);
    expect(quarantines[0]).toMatchObject({
      topic: 'events',
      partition: 0,
      offset: '1',
      reason: 'result key missing',
      errorClass: 'missing-result-key',
      attempts: 0,
      sinceMs: 1000,
      timestampMs: 0,
    });
    expect(quarantines[0]!.key?.toString()).toBe('k');
    expect(quarantines[0]!.value?.toString()).toBe('no-id');

    h.core.deliver(makeRecords(0, 2, { partition: 1 }));
    await h.succeed(0, 0);
    expect(h.started(1)).toEqual(['0']);
    await h.succeed(0, 1);
    await h.succeed(1, 1);
    await h.core.commitNow();

    // p0 commits up to the quarantined record ("resume here"), never past it; p1 is unaffected.
    expect(h.source.committed(tp(0))?.offset).toBe('1');
    expect(h.source.committed(tp(1))?.offset).toBe('2');
    expect(h.started(0)).toEqual(['0']);
    expect(h.source.isPaused(tp(1))).toBe(false);
    expect(h.partitionSnapshot(0).quarantine?.offset).toBe('1');
    expect(h.core.snapshot().counters.admissionFailures).toBe(1);
  });

  it('drops later (stale) batches of a quarantined partition', () => {
    const h = createHarness();
    h.core.deliver([makeRecord(0, { invalid: true })]);
    const result = h.core.deliver(makeRecords(1, 3));
    expect(result).toEqual({ accepted: 0, ignored: 0, dropped: 3 });
    expect(h.started()).toEqual([]);
    expect(h.eventsOf('batch-dropped').at(-1)).toMatchObject({ reason: 'quarantined', count: 3 });
  });

  it('releases not-started records after the quarantined one from the buffer (they will be redelivered)', async () => {
    // Failure after admission: the failure result cannot be delivered (it has no result key).
    const h = createHarness({
      ordering: 'key',
      onPermanentFailure: () => Promise.reject(permanentError('result has no key')),
    });
    h.core.deliver([
      makeRecord(0, { key: 'a' }),
      makeRecord(1, { key: 'b' }),
      makeRecord(2, { key: 'a' }),
      makeRecord(3, { key: 'c' }),
    ]);
    expect(h.started()).toEqual(['0', '1', '3']);
    await h.fail(0, permanentError());
    // p0@0 is quarantined: 2 (same key, not started) is released; 1 and 3 started after it and keep running.
    expect(h.partitionSnapshot()).toMatchObject({ deliveredCount: 1, buffered: 0 });
    expect(h.partitionSnapshot().quarantine).toMatchObject({ offset: '0', errorClass: 'permanent', attempts: 1 });
    expect(h.partitionSnapshot().quarantine?.reason).toMatch(/failure result could not be delivered/);
    expect(h.core.snapshot().counters.redelivered).toBe(3);

    await h.succeed(1);
    await h.succeed(3);
    await h.core.commitNow();
    expect(h.source.commits).toEqual([]);
    expect(h.started()).toEqual(['0', '1', '3']);
  });

  it('treats a throwing admit() as an admission failure', () => {
    const h = createHarness({
      admit: () => {
        throw new SyntaxError('Unexpected token');
      },
    });
    h.core.deliver([makeRecord(0)]);
    expect(h.partitionSnapshot().quarantine).toMatchObject({ errorClass: 'admission-error' });
    expect(h.partitionSnapshot().quarantine?.reason).toMatch(/SyntaxError: Unexpected token/);
    expect(h.started()).toEqual([]);
  });

  it('a bad input stops only its partition: a healthy partition and topic commit, a keyed store failure completes', async () => {
    const failureResults: string[] = [];
    const other: TopicPartition = { topic: 'other', partition: 0 };
    const h = createHarness({
      assign: [tp(0), tp(1), other],
      onPermanentFailure: async (_value, record) => {
        failureResults.push(`${record.topic}[${record.partition}]@${record.offset}`);
      },
    });
    h.core.deliver([makeRecord(0), makeRecord(1, { invalid: true }), makeRecord(2)]);
    h.core.deliver(makeRecords(0, 2, { partition: 1, key: 'k1' }));
    h.core.deliver(makeRecords(0, 1, { topic: 'other', key: 'k2' }));

    await h.succeed(0, 0);
    await h.succeed(0, 1);
    await h.fail(1, permanentError('vector store rejected'), 1);
    await h.succeed(0, 0, 'other');
    await h.core.commitNow();

    expect(h.source.committed(tp(0))?.offset).toBe('1'); // the bad offset is preserved
    expect(h.source.committed(tp(1))?.offset).toBe('2'); // the healthy partition progressed
    expect(h.source.committed(other)?.offset).toBe('1');
    expect(failureResults).toEqual(['events[1]@1']); // the keyed store failure completed with an error result
  });

  describe("quarantinePolicy 'dead-letter'", () => {
    it('dead-letters an admission failure without a slot and completes it only after the write is acknowledged', async () => {
      const h = createHarness({ quarantinePolicy: 'dead-letter', ordering: 'unordered', autoAckFailurePaths: false });
      h.core.deliver([makeRecord(0), makeRecord(1, { invalid: true }), makeRecord(2)]);
      expect(h.started()).toEqual(['0', '2']);
      expect(h.source.isPaused(tp())).toBe(false);
      const dlq = h.callsOf('dead-letter');
      expect(dlq).toHaveLength(1);
      expect(dlq[0]!.info).toEqual({ errorClass: 'missing-result-key', reason: 'result key missing', attempts: 0 });

      await h.succeed(0);
      await h.succeed(2);
      await h.core.commitNow();
      expect(h.source.committed(tp())?.offset).toBe('1');

      // A failing DLQ write is retried with backoff; the record stays out of the commit meanwhile.
      await h.fail(1, transientError('ETIMEDOUT'), 0, 'events', 'dead-letter');
      expect(h.eventsOf('retry-scheduled').at(-1)).toMatchObject({
        offset: '1',
        phase: 'dead-letter',
        attempt: 1,
        delayMs: 50,
      });
      await h.core.commitNow();
      expect(h.source.committed(tp())?.offset).toBe('1');
      await h.clock.tick(50);
      expect(h.callsOf('dead-letter')).toHaveLength(2);
      await h.succeed(1, 0, 'events', 'dead-letter');
      await h.core.commitNow();
      expect(h.source.committed(tp())?.offset).toBe('3');
      expect(h.core.snapshot().counters).toMatchObject({ deadLettered: 1, handled: 2 });
      expect(h.started()).toEqual(['0', '2']);
    });

    it('quarantines when the dead-letter write fails permanently (nothing is dropped)', async () => {
      const h = createHarness({
        quarantinePolicy: 'dead-letter',
        deadLetter: () => Promise.reject(permanentError('DLQ topic does not exist')),
      });
      h.core.deliver([makeRecord(0, { invalid: true })]);
      await h.clock.tick(0);
      expect(h.partitionSnapshot().quarantine).toMatchObject({ offset: '0', errorClass: 'missing-result-key' });
      expect(h.partitionSnapshot().quarantine?.reason).toMatch(/dead-letter write failed permanently/);
      expect(h.source.isPaused(tp())).toBe(true);
    });

    it('requires a deadLetter port', () => {
      expect(() => createHarness({ quarantinePolicy: 'dead-letter', deadLetter: undefined })).toThrow(
        /deadLetter port/,
      );
    });
  });
});
