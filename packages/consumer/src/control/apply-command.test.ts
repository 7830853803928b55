import { describe, expect, it } from 'vitest';
import { createHarness, makeRecord, tp } from '../core/testing/harness.js';
import type { DeadLetterInfo, SourceRecord } from '../core/index.js';
import { adminOffsetPorts, applyCommand, type ApplyPorts, type OffsetAdmin } from './apply-command.js';
import { CONTROL_PROTOCOL_VERSION, type TOperatorCommand } from './protocol.js';

// applyCommand on a real ConsumerCore (over the core's fake source), with fake broker ports.

function quarantined() {
  const h = createHarness({ ordering: 'partition' });
  h.core.deliver([makeRecord(0), makeRecord(1, { invalid: true, key: 'k-1', value: 'bad payload' }), makeRecord(2)]);
  return h;
}

function ports(h: ReturnType<typeof createHarness>, overrides: Partial<ApplyPorts> = {}) {
  const dlq: Array<{ record: SourceRecord; info: DeadLetterInfo }> = [];
  const value: ApplyPorts = {
    core: h.core,
    deadLetter: { name: 'events.dlq', write: async (record, info) => void dlq.push({ record, info }) },
    logRange: async () => ({ start: 0n, end: 100n }),
    offsetAt: async (_tp, timestampMs) => BigInt(Math.floor(timestampMs / 1000)),
    ...overrides,
  };
  return { ports: value, dlq };
}

function command(overrides: Partial<TOperatorCommand> = {}): TOperatorCommand {
  return {
    v: CONTROL_PROTOCOL_VERSION,
    type: 'command',
    id: 'c-1',
    groupId: 'g',
    topic: 'events',
    partition: 0,
    action: 'resume',
    quarantineOffset: '1',
    seekOffset: null,
    seekTimestampMs: null,
    reason: 'fixed upstream',
    requestedBy: 'alice',
    requestedAtMs: 1_000,
    expiresAtMs: 100_000,
    ...overrides,
  };
}

describe('applyCommand', () => {
  it('resume retries the held record', async () => {
    const h = quarantined();
    const outcome = await applyCommand(command(), ports(h).ports);
    expect(outcome).toEqual({
      status: 'done',
      outcome: 'resumed: retrying offset 1; reading continues at 1',
      liftedOffset: '1',
    });
    expect(h.partitionSnapshot().quarantine).toBeNull();
    expect(h.source.seeks(tp()).at(-1)).toBe('1');
  });

  it('skip copies the record to the dead-letter port first, then moves the commit past it', async () => {
    const h = quarantined();
    const { ports: p, dlq } = ports(h);
    const outcome = await applyCommand(command({ action: 'skip' }), p);
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
      deadLetter: { name: 'events.dlq', write: async () => Promise.reject(new Error('broker down')) },
    });
    const outcome = await applyCommand(command({ action: 'skip' }), p);
    expect(outcome).toEqual({
      status: 'failed',
      outcome:
        'the dead-letter copy to events.dlq failed (broker down); nothing was skipped, events-0 stays quarantined',
    });
    expect(h.partitionSnapshot().quarantine?.offset).toBe('1');
  });

  it('a skip whose partition was released while the copy was written skips nothing', async () => {
    const h = quarantined();
    const { ports: p } = ports(h, {
      deadLetter: {
        name: 'events.dlq',
        write: async () => {
          h.core.resumeQuarantined(tp());
        },
      },
    });
    const outcome = await applyCommand(command({ action: 'skip' }), p);
    expect(outcome).toEqual({
      status: 'failed',
      outcome: 'offset 1 was copied to events.dlq, but events-0 changed hands or state meanwhile; it was not skipped',
    });
  });

  it('skip without a dead-letter port just skips', async () => {
    const h = quarantined();
    const outcome = await applyCommand(command({ action: 'skip' }), ports(h, { deadLetter: null }).ports);
    expect(outcome?.outcome).toBe('skipped offset 1 without processing; reading continues at 2');
  });

  it('seek to an offset continues there', async () => {
    const h = quarantined();
    const outcome = await applyCommand(command({ action: 'seek', seekOffset: '40' }), ports(h).ports);
    expect(outcome).toEqual({
      status: 'done',
      outcome: 'sought from offset 1 to 40',
      seekOffset: '40',
      liftedOffset: '1',
    });
    expect(h.source.seeks(tp()).at(-1)).toBe('40');
  });

  it('seek to a time resolves the offset through the broker and records it', async () => {
    const h = quarantined();
    const outcome = await applyCommand(command({ action: 'seek', seekTimestampMs: 57_000 }), ports(h).ports);
    expect(outcome).toEqual({
      status: 'done',
      outcome: `sought from offset 1 to 57 (first record at or after ${new Date(57_000).toISOString()})`,
      seekOffset: '57',
      liftedOffset: '1',
    });
  });

  it('refuses a seek outside the log and changes nothing', async () => {
    const h = quarantined();
    const outcome = await applyCommand(command({ action: 'seek', seekOffset: '101' }), ports(h).ports);
    expect(outcome).toMatchObject({
      status: 'rejected',
      outcome: 'offset 101 is outside the log of events-0 (0 to 100); nothing was changed',
    });
    expect(h.partitionSnapshot().quarantine?.offset).toBe('1');
  });

  it('rejects a seek with neither an offset nor a time', async () => {
    const h = quarantined();
    const outcome = await applyCommand(command({ action: 'seek' }), ports(h).ports);
    expect(outcome).toEqual({ status: 'rejected', outcome: 'seek without an offset or a timestamp' });
    expect(h.partitionSnapshot().quarantine?.offset).toBe('1');
  });

  it('rejects a command aimed at another record than the one now held', async () => {
    const h = quarantined();
    const outcome = await applyCommand(command({ action: 'skip', quarantineOffset: '7' }), ports(h).ports);
    expect(outcome?.status).toBe('rejected');
    expect(outcome?.outcome).toMatch(/now held at offset 1, not at 7/);
    expect(h.partitionSnapshot().quarantine?.offset).toBe('1');
  });

  it('applies a command without a quarantine offset to whatever is held', async () => {
    const h = quarantined();
    const outcome = await applyCommand(command({ quarantineOffset: null }), ports(h).ports);
    expect(outcome?.status).toBe('done');
    expect(outcome?.liftedOffset).toBe('1');
  });

  it('rejects a command without a quarantine offset when nothing is held', async () => {
    const h = createHarness();
    h.core.deliver([makeRecord(0)]);
    const outcome = await applyCommand(command({ quarantineOffset: null }), ports(h).ports);
    expect(outcome).toEqual({
      status: 'rejected',
      outcome: 'events-0 is not quarantined (any more): nothing to resume',
    });
  });

  it('rejects a command whose held record the commit has passed (it is not quarantined any more)', async () => {
    const h = createHarness();
    h.core.deliver([makeRecord(0), makeRecord(1), makeRecord(2)]);
    for (const offset of [0, 1, 2]) await h.succeed(offset);
    await h.core.commitNow();
    expect(h.partitionSnapshot().watermark).toBe('3');
    const outcome = await applyCommand(command({ action: 'skip' }), ports(h).ports);
    expect(outcome).toEqual({ status: 'rejected', outcome: 'events-0 is not quarantined (any more): nothing to skip' });
  });

  it('waits while the owner has not reached the held record yet (no commit, or one below it)', async () => {
    const h = createHarness();
    expect(await applyCommand(command(), ports(h).ports)).toBeNull();
    h.core.deliver([makeRecord(0), makeRecord(1)]);
    await h.succeed(0);
    await h.core.commitNow();
    expect(h.partitionSnapshot().watermark).toBe('1');
    expect(await applyCommand(command(), ports(h).ports)).toBeNull();
  });

  it('leaves a command on a partition it does not own to the owner', async () => {
    const h = quarantined();
    expect(await applyCommand(command({ partition: 3 }), ports(h).ports)).toBeNull();
  });

  it('reports a core that refuses as failed, never throws', async () => {
    const h = quarantined();
    h.source.failNext.seek = new Error('consumer not running');
    const outcome = await applyCommand(command(), ports(h).ports);
    expect(outcome?.status).toBe('failed');
    expect(outcome?.outcome).toMatch(/^resume of events-0 failed: seek .* failed/);
  });

  it('reports a broker read that fails as failed, never throws', async () => {
    const h = quarantined();
    const outcome = await applyCommand(
      command({ action: 'seek', seekTimestampMs: 5_000 }),
      ports(h, { offsetAt: () => Promise.reject(new Error('not the leader')) }).ports,
    );
    expect(outcome).toEqual({ status: 'failed', outcome: 'seek of events-0 failed: not the leader' });
    expect(h.partitionSnapshot().quarantine?.offset).toBe('1');
  });
});

describe('adminOffsetPorts', () => {
  const admin: OffsetAdmin = {
    fetchTopicOffsets: async () => [
      { partition: 0, offset: '90', high: '90', low: '10' },
      { partition: 1, offset: '5', high: '5', low: '0' },
    ],
    fetchTopicOffsetsByTimestamp: async () => [
      { partition: 0, offset: '42' },
      { partition: 1, offset: '3' },
    ],
  };

  it("reads a partition's log range and the offset at a time", async () => {
    const p = adminOffsetPorts(admin);
    expect(await p.logRange(tp(0))).toEqual({ start: 10n, end: 90n });
    expect(await p.offsetAt(tp(1), 1_000)).toBe(3n);
  });

  it('says when the broker does not know the partition', async () => {
    await expect(adminOffsetPorts(admin).logRange(tp(7))).rejects.toThrow('events-7 does not exist on the broker');
  });
});
