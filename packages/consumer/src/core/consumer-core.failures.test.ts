import { describe, expect, it } from 'vitest';
import { defaultClassifyError } from './index.js';
import { createHarness, makeRecord, makeRecords, permanentError, tp, transientError } from './testing/harness.js';

describe('ConsumerCore failure paths', () => {
  it('permanent failure: onPermanentFailure publishes the failure result, no retry, completes when it resolves', async () => {
    const h = createHarness({ ordering: 'key', autoAckFailurePaths: false });
    h.core.deliver([makeRecord(0, { key: 'a' }), makeRecord(1, { key: 'a' })]);
    const error = permanentError('dimension mismatch');
    await h.fail(0, error);

    const results = h.callsOf('permanent-failure');
    expect(results).toHaveLength(1);
    expect(results[0]!.info).toBe(error);
    expect(h.started()).toEqual(['0']); // not retried; the same-key successor waits for the failure result
    await h.core.commitNow();
    expect(h.source.commits).toEqual([]);

    await h.succeed(0, 0, 'events', 'permanent-failure');
    expect(h.started()).toEqual(['0', '1']);
    await h.core.commitNow();
    expect(h.source.committed(tp())?.offset).toBe('1');
    expect(h.core.snapshot().counters).toMatchObject({ permanentFailures: 1, retries: 0, completed: 1 });
    expect(h.eventsOf('completed')[0]).toMatchObject({ offset: '0', outcome: 'failed-result', attempts: 1 });
  });

  it('retries a transiently failing failure result without re-running the handler or holding a slot', async () => {
    const h = createHarness({ ordering: 'key', maxInFlight: 1, autoAckFailurePaths: false });
    h.core.deliver([makeRecord(0, { key: 'a' }), makeRecord(1, { key: 'b' })]);
    await h.fail(0, permanentError());
    expect(h.started()).toEqual(['0', '1']); // the failure path does not occupy the only slot

    await h.fail(0, transientError('broker ECONNREFUSED'), 0, 'events', 'permanent-failure');
    expect(h.eventsOf('retry-scheduled').at(-1)).toMatchObject({ phase: 'permanent-failure', attempt: 1 });
    await h.clock.tick(50);
    expect(h.callsOf('permanent-failure')).toHaveLength(2);
    await h.succeed(0, 0, 'events', 'permanent-failure');
    expect(h.started().filter((offset) => offset === '0')).toHaveLength(1);
    expect(h.core.snapshot().counters).toMatchObject({ permanentFailures: 1, retries: 1 });
  });

  it("policy 'dead-letter': an undeliverable failure result goes to the dead-letter port", async () => {
    const h = createHarness({
      quarantinePolicy: 'dead-letter',
      onPermanentFailure: () => Promise.reject(permanentError('no result key')),
      autoAckFailurePaths: false,
    });
    h.core.deliver(makeRecords(0, 1));
    await h.fail(0, permanentError('bad vector'));
    const dlq = h.callsOf('dead-letter');
    expect(dlq).toHaveLength(1);
    expect(dlq[0]!.info).toMatchObject({ errorClass: 'permanent', attempts: 1 });
    expect((dlq[0]!.info as { reason: string }).reason).toMatch(/no result key.*bad vector/);
    await h.succeed(0, 0, 'events', 'dead-letter');
    await h.core.commitNow();
    expect(h.source.committed(tp())?.offset).toBe('1');
    expect(h.source.isPaused(tp())).toBe(false);
  });

  it('without onPermanentFailure a permanent failure goes straight to the quarantine policy', async () => {
    const h = createHarness({ onPermanentFailure: undefined });
    h.core.deliver(makeRecords(0, 2, { key: 'a' }));
    await h.fail(0, permanentError());
    expect(h.partitionSnapshot().quarantine).toMatchObject({ offset: '0', errorClass: 'permanent' });
    expect(h.partitionSnapshot().quarantine?.reason).toMatch(/handler failed permanently/);
    expect(h.source.seeks(tp())).toEqual(['0']);
  });

  it('uses a custom classifier; a throwing classifier counts as permanent', async () => {
    const h = createHarness({ classifyError: (err) => (err === 'again' ? 'transient' : 'permanent') });
    h.core.deliver(makeRecords(0, 1));
    await h.fail(0, 'again');
    expect(h.eventsOf('retry-scheduled')).toHaveLength(1);

    const throwing = createHarness({
      classifyError: () => {
        throw new Error('classifier bug');
      },
    });
    throwing.core.deliver(makeRecords(0, 1));
    await throwing.fail(0, transientError());
    expect(throwing.callsOf('permanent-failure')).toHaveLength(1);
  });

  it('a handler that throws synchronously is an ordinary failure', async () => {
    const h = createHarness({
      handle: () => {
        throw transientError('ECONNRESET');
      },
    });
    h.core.deliver(makeRecords(0, 1));
    await h.clock.tick(0);
    expect(h.eventsOf('retry-scheduled')).toHaveLength(1);
  });

  it('exports the default classifier', () => {
    expect(defaultClassifyError(new Error('ECONNREFUSED'))).toBe('transient');
  });
});
