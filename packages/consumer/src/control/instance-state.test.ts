import { describe, expect, it } from 'vitest';
import { partitionSnapshotOf } from '../core/testing/snapshots.js';
import type { QuarantineInfo } from '../core/index.js';
import { buildInstanceState, capText, RecentList, rebalanceStopOf, type InstanceStateInput } from './instance-state.js';
import {
  decodeControlMessage,
  HOLD_PREVIEW_MAX_CHARS,
  MAX_STATE_MESSAGE_BYTES,
  ZInstanceState,
  type TCommandOutcome,
} from './protocol.js';

function quarantine(partition: number, overrides: Partial<QuarantineInfo> = {}): QuarantineInfo {
  return {
    topic: 'in',
    partition,
    offset: '7',
    reason: 'result key missing',
    errorClass: 'invalid',
    sinceMs: 5_000,
    attempts: 0,
    key: Buffer.from('k\u0000ey'),
    value: Buffer.from([0xff, 0xfe, 0x00]),
    headers: { trace: Buffer.from('abc'), text: 'plain', gone: undefined },
    timestampMs: 4_000,
    ...overrides,
  };
}

function input(overrides: Partial<InstanceStateInput> = {}): InstanceStateInput {
  return {
    identity: {
      groupId: 'orders',
      instanceId: 'orders@host/42',
      clientId: 'orders',
      host: 'host',
      pid: 42,
      packageVersion: '0.1.0',
      startedAtMs: 1_000,
      stateIntervalMs: 5_000,
      topics: ['in'],
    },
    publishedAtMs: 9_000,
    status: 'running',
    readiness: { ready: true, detail: 'consuming' },
    assignment: [
      { topic: 'in', partition: 0 },
      { topic: 'in', partition: 1 },
    ],
    partitions: [
      partitionSnapshotOf({ partition: 0, watermark: '3', inFlight: 2, oldestUnfinishedAgeMs: 12.6 }),
      partitionSnapshotOf({ partition: 1, watermark: '7', quarantine: quarantine(1) }),
    ],
    rebalances: [],
    outcomes: [],
    refused: { count: 0, recent: [] },
    ...overrides,
  };
}

/** The encoded message read back the way a reader does. */
function decoded(bytes: Buffer) {
  const result = decodeControlMessage(bytes, ZInstanceState, MAX_STATE_MESSAGE_BYTES);
  if (!result.ok) throw new Error(result.reason);
  return result.message;
}

function outcome(n: number, text = 'done'): TCommandOutcome {
  return {
    commandId: `c-${n}`,
    action: 'skip',
    topic: 'in',
    partition: 0,
    status: 'done',
    outcome: text,
    appliedAtMs: n,
  };
}

describe('buildInstanceState', () => {
  it('carries identity, readiness, partitions and holds with escaped previews, and parses as the protocol says', () => {
    const { message, bytes } = buildInstanceState(input());
    expect(decoded(bytes)).toEqual(message);
    expect(message).toMatchObject({
      v: 1,
      type: 'instance-state',
      groupId: 'orders',
      instanceId: 'orders@host/42',
      pid: 42,
      status: 'running',
      ready: true,
      readinessDetail: 'consuming',
      truncated: false,
    });
    // Held partitions come first; a held partition counts as paused.
    expect(message.partitions.map((p) => [p.partition, p.paused])).toEqual([
      [1, true],
      [0, false],
    ]);
    expect(message.partitions[1]).toMatchObject({ watermark: '3', inFlight: 2, oldestUnfinishedAgeMs: 13 });
    expect(message.holds).toEqual([
      {
        topic: 'in',
        partition: 1,
        offset: '7',
        sinceMs: 5_000,
        reason: 'result key missing',
        errorClass: 'invalid',
        attempts: 0,
        key: 'k\\u0000ey',
        value: 'hex:fffe00',
        headers: { trace: 'abc', text: 'plain', gone: null },
        timestampMs: 4_000,
      },
    ]);
  });

  it('says stopped and not ready in the last message of a clean stop', () => {
    const { message } = buildInstanceState(input({ status: 'stopped' }));
    expect(message).toMatchObject({ status: 'stopped', ready: false, readinessDetail: 'stopped' });
  });

  it('cuts texts to their limits and leaves out offsets that are not int64 decimals', () => {
    const long = 'x'.repeat(10_000);
    const { message, bytes } = buildInstanceState(
      input({
        readiness: { ready: false, detail: long },
        partitions: [
          partitionSnapshotOf({
            partition: 2,
            watermark: '-1',
            quarantine: quarantine(2, {
              reason: long,
              errorClass: long,
              value: Buffer.from(long),
              headers: { [long]: long },
              timestampMs: -1,
            }),
          }),
        ],
      }),
    );
    expect(decoded(bytes)).toEqual(message);
    expect(message.readinessDetail).toHaveLength(1_024);
    expect(message.partitions[0]?.watermark).toBeNull();
    const hold = message.holds[0]!;
    expect(hold.reason).toHaveLength(4_096);
    expect(hold.errorClass).toHaveLength(256);
    expect(hold.value).toHaveLength(HOLD_PREVIEW_MAX_CHARS + 1);
    expect(Object.keys(hold.headers)[0]).toHaveLength(256);
    expect(hold.timestampMs).toBeNull();
  });

  it('drops previews first when the message would be too large', () => {
    const big = Buffer.from('v'.repeat(HOLD_PREVIEW_MAX_CHARS));
    const partitions = Array.from({ length: 10 }, (_, partition) =>
      partitionSnapshotOf({ partition, quarantine: quarantine(partition, { value: big }) }),
    );
    const complete = buildInstanceState(input({ partitions }));
    const limit = complete.bytes.length - 1;
    const { message, bytes } = buildInstanceState(input({ partitions }), limit);
    expect(bytes.length).toBeLessThanOrEqual(limit);
    expect(message.truncated).toBe(true);
    expect(message.partitions).toHaveLength(10);
    expect(message.holds).toHaveLength(10);
    expect(message.holds.every((h) => h.key === null && h.value === null && Object.keys(h.headers).length === 0)).toBe(
      true,
    );
    expect(decoded(bytes)).toEqual(message);
  });

  it('then leaves out the partitions beyond what fits, held ones last, and stays exactly within the limit', () => {
    const partitions = Array.from({ length: 500 }, (_, partition) =>
      partitionSnapshotOf({ partition, quarantine: partition === 499 ? quarantine(partition) : null }),
    );
    for (const limit of [20_000, 20_001, 20_050]) {
      const { message, bytes } = buildInstanceState(input({ partitions }), limit);
      expect(bytes.length).toBeLessThanOrEqual(limit);
      expect(message.truncated).toBe(true);
      expect(message.partitions.length).toBeGreaterThan(10);
      expect(message.partitions.length).toBeLessThan(500);
      expect(message.partitions[0]?.partition).toBe(499);
      expect(message.holds.map((h) => h.partition)).toEqual([499]);
      // One more partition would not have fitted.
      const withOneMore = Buffer.byteLength(JSON.stringify(message.partitions[message.partitions.length - 1])) + 1;
      expect(bytes.length + withOneMore).toBeGreaterThan(limit);
      expect(decoded(bytes)).toEqual(message);
    }
  });

  it('keeps the newest outcomes when even they must be cut', () => {
    const outcomes = Array.from({ length: 50 }, (_, n) => outcome(n, 'o'.repeat(4_000)));
    const { message, bytes } = buildInstanceState(input({ outcomes }), 100_000);
    expect(bytes.length).toBeLessThanOrEqual(100_000);
    expect(message.partitions).toEqual([]);
    expect(message.outcomes.length).toBeGreaterThan(10);
    expect(message.outcomes.length).toBeLessThan(50);
    expect(message.outcomes.at(-1)?.commandId).toBe('c-49');
  });
});

describe('rebalanceStopOf', () => {
  it('carries a measured stop without the group (the state message names it)', () => {
    const stop = rebalanceStopOf({
      groupId: 'orders',
      memberId: 'm-1',
      leaderId: 'm-0',
      isLeader: false,
      groupProtocol: 'RoundRobinAssigner',
      cause: 'rebalance',
      startedAtMs: 1_000,
      endedAtMs: 1_250,
      assignmentBefore: [{ topic: 'in', partition: 0 }],
      assignmentAfter: [],
    });
    expect(stop).toEqual({
      memberId: 'm-1',
      leaderId: 'm-0',
      isLeader: false,
      groupProtocol: 'RoundRobinAssigner',
      cause: 'rebalance',
      startedAtMs: 1_000,
      endedAtMs: 1_250,
      assignmentBefore: [{ topic: 'in', partition: 0 }],
      assignmentAfter: [],
    });
  });
});

describe('RecentList and capText', () => {
  it('keeps the newest items, oldest first', () => {
    const list = new RecentList<number>(3);
    for (let n = 1; n <= 5; n++) list.push(n);
    expect(list.items).toEqual([3, 4, 5]);
  });

  it('cuts text to the limit with an ellipsis and never halves a character', () => {
    expect(capText('abcdef', 6)).toBe('abcdef');
    expect(capText('abcdefg', 6)).toBe('abcde…');
    expect(capText('abcd😀x', 6)).toBe('abcd…');
  });
});
