import { describe, expect, it } from 'vitest';
import type { DeadLetterInfo, SourceRecord } from '@warden/consumer';
import { createHarness, makeRecord, tp } from '@warden/consumer/testing';
import { executeOperatorAction, type ActionPorts, type PendingAction } from './execute-operator-action';

// The executor on a real ConsumerCore (over the fake source of worker/core/testing), with fake broker ports.

function quarantined() {
  const h = createHarness({ ordering: 'partition' });
  h.core.deliver([makeRecord(0), makeRecord(1, { invalid: true, key: 'k-1', value: 'bad payload' }), makeRecord(2)]);
  return h;
}

function ports(h: ReturnType<typeof createHarness>, overrides: Partial<ActionPorts> = {}) {
  const dlq: Array<{ record: SourceRecord; info: DeadLetterInfo }> = [];
  const value: ActionPorts = {
    core: h.core,
    deadLetter: { topic: 'events.dlq', write: async (record, info) => void dlq.push({ record, info }) },
    logRange: async () => ({ start: 0n, end: 100n }),
    offsetAt: async (_tp, timestampMs) => BigInt(Math.floor(timestampMs / 1000)),
    ...overrides,
  };
  return { ports: value, dlq };
}

function action(overrides: Partial<PendingAction> = {}): PendingAction {
  return {
    id: 1n,
    groupId: 'g',
    topic: 'events',
    partition: 0,
    action: 'resume',
    seekOffset: null,
    seekTimestamp: null,
    quarantineOffset: 1n,
    reason: 'fixed upstream',
    requestedBy: 'alice',
    ...overrides,
  };
}

describe('executeOperatorAction', () => {
  it('resume retries the held record', async () => {
    const h = quarantined();
    const outcome = await executeOperatorAction(action(), ports(h).ports);
    expect(outcome).toEqual({
      status: 'done',
      outcome: 'resumed: retrying offset 1; reading continues at 1',
      liftedOffset: 1n,
    });
    expect(h.partitionSnapshot().quarantine).toBeNull();
    expect(h.source.seeks(tp()).at(-1)).toBe('1');
  });

  it('skip copies the record to the dead-letter topic first, then moves the commit past it', async () => {
    const h = quarantined();
    const { ports: p, dlq } = ports(h);
    const outcome = await executeOperatorAction(action({ action: 'skip' }), p);
    expect(outcome?.status).toBe('done');
    expect(outcome?.outcome).toBe('skipped offset 1 without processing, copied to events.dlq; reading continues at 2');
    expect(dlq).toHaveLength(1);
    expect(dlq[0]?.record).toMatchObject({ topic: 'events', partition: 0, offset: '1' });
    expect(dlq[0]?.record.value?.toString()).toBe('bad payload');
    expect(dlq[0]?.info).toEqual({
      errorClass: 'missing-result-key',
      reason: 'skipped by alice: fixed upstream (held for: result key missing)',
      attempts: 0,
    });
    await h.succeed(0);
    await h.core.commitNow();
    expect(h.source.committed(tp())?.offset).toBe('2');
  });

  it('a failed dead-letter copy skips nothing', async () => {
    const h = quarantined();
    const { ports: p } = ports(h, {
      deadLetter: { topic: 'events.dlq', write: async () => Promise.reject(new Error('broker down')) },
    });
    const outcome = await executeOperatorAction(action({ action: 'skip' }), p);
    expect(outcome).toEqual({
      status: 'failed',
      outcome:
        'the dead-letter copy to events.dlq failed (broker down); nothing was skipped, events-0 stays quarantined',
    });
    expect(h.partitionSnapshot().quarantine?.offset).toBe('1');
  });

  it('skip without a dead-letter topic just skips', async () => {
    const h = quarantined();
    const outcome = await executeOperatorAction(action({ action: 'skip' }), ports(h, { deadLetter: null }).ports);
    expect(outcome?.outcome).toBe('skipped offset 1 without processing; reading continues at 2');
  });

  it('seek to an offset continues there', async () => {
    const h = quarantined();
    const outcome = await executeOperatorAction(action({ action: 'seek', seekOffset: 40n }), ports(h).ports);
    expect(outcome).toEqual({
      status: 'done',
      outcome: 'sought from offset 1 to 40',
      seekOffset: 40n,
      liftedOffset: 1n,
    });
    expect(h.source.seeks(tp()).at(-1)).toBe('40');
  });

  it('seek to a time resolves the offset through the broker and records it', async () => {
    const h = quarantined();
    const at = new Date(57_000);
    const outcome = await executeOperatorAction(action({ action: 'seek', seekTimestamp: at }), ports(h).ports);
    expect(outcome).toEqual({
      status: 'done',
      outcome: `sought from offset 1 to 57 (first record at or after ${at.toISOString()})`,
      seekOffset: 57n,
      liftedOffset: 1n,
    });
  });

  it('refuses a seek outside the log and changes nothing', async () => {
    const h = quarantined();
    const outcome = await executeOperatorAction(action({ action: 'seek', seekOffset: 101n }), ports(h).ports);
    expect(outcome).toMatchObject({
      status: 'rejected',
      outcome: 'offset 101 is outside the log of events-0 (0 to 100); nothing was changed',
    });
    expect(h.partitionSnapshot().quarantine?.offset).toBe('1');
  });

  it('rejects an action on a partition that is not quarantined', async () => {
    const h = createHarness();
    h.core.deliver([makeRecord(0)]);
    const outcome = await executeOperatorAction(action(), ports(h).ports);
    expect(outcome).toEqual({
      status: 'rejected',
      outcome: 'events-0 is not quarantined (any more): nothing to resume',
    });
  });

  it('rejects an action aimed at another record than the one now held', async () => {
    const h = quarantined();
    const outcome = await executeOperatorAction(action({ action: 'skip', quarantineOffset: 7n }), ports(h).ports);
    expect(outcome?.status).toBe('rejected');
    expect(outcome?.outcome).toMatch(/now held at offset 1, not at 7/);
    expect(h.partitionSnapshot().quarantine?.offset).toBe('1');
  });

  it('leaves an action on a partition it does not own to the owner', async () => {
    const h = quarantined();
    expect(await executeOperatorAction(action({ partition: 3 }), ports(h).ports)).toBeNull();
  });

  it('reports a core that refuses as failed, never throws', async () => {
    const h = quarantined();
    h.source.failNext.seek = new Error('consumer not running');
    const outcome = await executeOperatorAction(action(), ports(h).ports);
    expect(outcome?.status).toBe('failed');
    expect(outcome?.outcome).toMatch(/^resume of events-0 failed: seek .* failed/);
  });
});
