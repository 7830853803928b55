import { describe, expect, it } from 'vitest';
import {
  type Advice,
  type AdviceInput,
  type AdvicePartition,
  adviseGroup,
  KAFKAJS_CAPABILITIES,
  rebalanceProtocolOf,
} from './advice';

const part = (partition: number, extra: Partial<AdvicePartition> = {}): AdvicePartition => ({
  topic: 'orders',
  partition,
  lag: 100,
  arrivalRatePerSec: 100,
  ...extra,
});

/** A healthy group: 6 partitions, 6 members, even lag, cooperative, nothing measured that triggers a rule. */
const healthy: AdviceInput = {
  partitions: Array.from({ length: 6 }, (_, i) => part(i)),
  members: 6,
  perConsumerRatePerSec: 300,
  pollBudget: { maxBatchRecords: 100, slowRecordMs: 100, limitMs: 300_000, limitName: 'max.poll.interval.ms' },
  rebalancesPerHour: 1,
  rebalanceProtocol: 'cooperative',
  assignor: 'cooperative-sticky',
  client: null,
  memberRestarts: { restarts: 3, restartsWithNewMemberId: 0 },
};

const ids = (advice: Advice[]) => advice.map((a) => a.id);
const only = (advice: Advice[], id: string): Advice => {
  const found = advice.filter((a) => a.id === id);
  expect(found, id).toHaveLength(1);
  return found[0] as Advice;
};

describe('adviseGroup: statuses', () => {
  const stop = (partition: number) =>
    part(partition, { status: 'STOP', statusReason: 'no commit for 4 min 10 s; lag 3,012 and growing 8/s' });

  it('says a STOP group has no consumer running, what it saw and what to check, first and critical', () => {
    const advice = adviseGroup({
      ...healthy,
      groupId: 'etl',
      members: 0,
      groupState: 'Empty',
      partitions: [stop(0), stop(1), part(2)],
    });
    const item = only(advice, 'status:STOP');
    expect(advice[0]).toBe(item);
    expect(item.severity).toBe('critical');
    expect(item.title).toBe('Consumer stopped: no commits on 2 partitions while records wait');
    expect(item.detail).toMatch(/^orders-0 \(no commit for 4 min 10 s; lag 3,012 and growing 8\/s\); orders-1 /);
    expect(item.detail).toMatch(/no members \(state Empty\): no consumer of group etl is running/);
    expect(item.evidence).toMatchObject({ partitions: 'orders-0, orders-1', members: 0, groupState: 'Empty' });
  });

  it('names the owners of a STOP partition that still hold it', () => {
    const advice = adviseGroup({ ...healthy, partitions: [{ ...stop(0), ownerName: 'etl 10.0.0.1 #a1b2c3' }] });
    expect(only(advice, 'status:STOP').detail).toMatch(/Its owner \(etl 10\.0\.0\.1 #a1b2c3\) still hold/);
  });

  it('explains STALL and REWIND; a quarantine explains STOP and STALL but not REWIND', () => {
    const advice = adviseGroup({
      ...healthy,
      partitions: [
        part(0, { status: 'STALL' }),
        part(1, { status: 'REWIND' }),
        part(2, { status: 'STOP', quarantinedForMs: 1 }),
      ],
    });
    expect(ids(advice).filter((id) => id.startsWith('status:'))).toEqual(['status:STALL', 'status:REWIND']);
    expect(only(advice, 'status:STALL').detail).toMatch(/poison record/);
    expect(only(advice, 'status:REWIND').detail).toMatch(/offset reset/);
  });
});

describe('adviseGroup', () => {
  it('gives no advice for a healthy group', () => {
    expect(adviseGroup(healthy)).toEqual([]);
  });

  it('gives no advice when nothing is known', () => {
    const unknown: AdviceInput = {
      partitions: [part(0, { lag: null, arrivalRatePerSec: null })],
      members: 1,
      perConsumerRatePerSec: null,
      pollBudget: null,
      rebalancesPerHour: null,
      rebalanceProtocol: null,
      assignor: null,
      client: null,
      memberRestarts: null,
    };
    expect(adviseGroup(unknown)).toEqual([]);
  });

  describe('hot partitions', () => {
    it('flags a partition above one consumer rate as critical, with its share of the topic', () => {
      const partitions = [
        part(0, { arrivalRatePerSec: 400, lag: 50_000 }),
        part(1, { arrivalRatePerSec: 100 }),
        part(2, { arrivalRatePerSec: 100 }),
      ];
      const advice = only(adviseGroup({ ...healthy, partitions, members: 3 }), 'hot-partition:orders-0');
      expect(advice.severity).toBe('critical');
      expect(advice.evidence).toEqual({
        topic: 'orders',
        partition: 0,
        arrivalRatePerSec: 400,
        perConsumerRatePerSec: 300,
        shareOfTopicArrivalPercent: 67,
        lag: 50_000,
      });
      expect(advice.detail).toContain('orders-0 receives 400/s; one consumer processes 300/s.');
      expect(advice.detail).toContain('grows by 100/s however many consumers run');
      expect(advice.detail).toContain('It carries 67% of the arrivals of topic orders (3 partitions)');
      expect(advice.detail).toMatch(/Re-key/);
    });

    it('flags a partition exactly at one consumer rate as a warning', () => {
      const partitions = [part(0, { arrivalRatePerSec: 300 }), part(1)];
      const advice = only(adviseGroup({ ...healthy, partitions, members: 2 }), 'hot-partition:orders-0');
      expect(advice.severity).toBe('warning');
      expect(advice.detail).toMatch(/no headroom/);
    });

    it('does not fire just below one consumer rate, or without a measured rate', () => {
      const partitions = [part(0, { arrivalRatePerSec: 299.9 }), part(1)];
      expect(adviseGroup({ ...healthy, partitions, members: 2 })).toEqual([]);
      const hot = [part(0, { arrivalRatePerSec: 1_000 }), part(1)];
      expect(adviseGroup({ ...healthy, partitions: hot, members: 2, perConsumerRatePerSec: null })).toEqual([]);
    });
  });

  describe('a partition held back by its own processing', () => {
    const bound = { arrivalRatePerSec: 18, consumptionRatePerSec: 11, sinceMs: Date.UTC(2026, 10, 30, 4, 30) };

    it('says more consumers would not drain it, with the rates measured since its backlog began', () => {
      const partitions = [
        part(0, { arrivalRatePerSec: 18, lag: 400, ownProcessingBound: bound }),
        part(1, { arrivalRatePerSec: 5 }),
      ];
      const advice = only(
        adviseGroup({ ...healthy, partitions, members: 1, perConsumerRatePerSec: null }),
        'own-processing-bound:orders-0',
      );
      expect(advice.severity).toBe('warning');
      expect(advice.evidence).toEqual({
        topic: 'orders',
        partition: 0,
        arrivalRatePerSec: 18,
        consumptionRatePerSec: 11,
        backlogSince: '2026-11-30T04:30:00.000Z',
        lag: 400,
      });
      expect(advice.detail).toContain('orders-0 processes 11/s while 18/s arrive');
      expect(advice.detail).toMatch(/more consumers would not drain it/);
    });

    it('leaves a partition that is also hot to the hot-partition advice', () => {
      const partitions = [
        part(0, { arrivalRatePerSec: 400, ownProcessingBound: { ...bound, arrivalRatePerSec: 400 } }),
        part(1),
      ];
      expect(ids(adviseGroup({ ...healthy, partitions, members: 2 }))).toEqual(['hot-partition:orders-0']);
    });
  });

  describe('poll budget', () => {
    it('fires critical on the slow-poll scenario: 500 x 0.8 s = 400 s against 300 s', () => {
      const pollBudget = {
        maxBatchRecords: 500,
        slowRecordMs: 800,
        limitMs: 300_000,
        limitName: 'max.poll.interval.ms',
      };
      const advice = only(adviseGroup({ ...healthy, pollBudget }), 'poll-budget');
      expect(advice.severity).toBe('critical');
      expect(advice.evidence).toEqual({
        maxBatchRecords: 500,
        slowRecordMs: 800,
        batchWorstCaseMs: 400_000,
        limitMs: 300_000,
        limitName: 'max.poll.interval.ms',
        suggestedMaxBatchRecords: 300,
      });
      expect(advice.detail).toContain('500 records x 800 ms = 6 min 40 s, over the 5 min max.poll.interval.ms');
      expect(advice.detail).toMatch(/rebalance loop/);
    });

    it('warns above 80% of the limit and stays silent at or below it', () => {
      const budget = (slowRecordMs: number) => ({
        maxBatchRecords: 500,
        slowRecordMs,
        limitMs: 30_000,
        limitName: 'sessionTimeout',
      });
      const warn = only(adviseGroup({ ...healthy, pollBudget: budget(50) }), 'poll-budget'); // 25 s of 30 s
      expect(warn.severity).toBe('warning');
      expect(warn.evidence.suggestedMaxBatchRecords).toBe(480);
      expect(adviseGroup({ ...healthy, pollBudget: budget(48) })).toEqual([]); // 24 s = exactly 80%
      expect(only(adviseGroup({ ...healthy, pollBudget: budget(60) }), 'poll-budget').severity).toBe('warning'); // = limit
      expect(only(adviseGroup({ ...healthy, pollBudget: budget(61) }), 'poll-budget').severity).toBe('critical');
    });

    it('says how the time per record was obtained and which numbers were assumed', () => {
      const pollBudget = {
        maxBatchRecords: 500,
        slowRecordMs: 800,
        limitMs: 300_000,
        limitName: 'max.poll.interval.ms',
        slowRecordBasis: 'a mean from consumer-1',
        assumed: 'max.poll.records 500 (Java client default)',
      };
      const advice = only(adviseGroup({ ...healthy, pollBudget }), 'poll-budget');
      expect(advice.evidence).toMatchObject({
        slowRecordMsBasis: 'a mean from consumer-1',
        assumed: 'max.poll.records 500 (Java client default)',
        batchWorstCaseMs: 400_000,
      });
      expect(advice.detail).toMatch(
        /Time per record: a mean from consumer-1\. Assumed, not read from the client: max\.poll\.records 500 \(Java client default\)\.$/,
      );
    });
  });

  describe('more members than partitions', () => {
    it('fires with the idle count', () => {
      const advice = only(adviseGroup({ ...healthy, members: 7 }), 'members-exceed-partitions');
      expect(advice.severity).toBe('info');
      expect(advice.title).toBe('1 member idle: more members than partitions');
      expect(advice.evidence).toEqual({ members: 7, partitions: 6, idleMembers: 1 });
    });

    it('does not fire at one member per partition', () => {
      expect(ids(adviseGroup({ ...healthy, members: 6 }))).not.toContain('members-exceed-partitions');
    });
  });

  describe('rebalance rate', () => {
    it('warns above the threshold and is critical above the critical threshold', () => {
      expect(ids(adviseGroup({ ...healthy, rebalancesPerHour: 2 }))).toEqual([]);
      const warn = only(adviseGroup({ ...healthy, rebalancesPerHour: 3 }), 'rebalance-rate');
      expect(warn.severity).toBe('warning');
      expect(warn.evidence).toEqual({ rebalancesPerHour: 3, thresholdPerHour: 2 });
      expect(only(adviseGroup({ ...healthy, rebalancesPerHour: 12 }), 'rebalance-rate').severity).toBe('warning');
      const critical = only(adviseGroup({ ...healthy, rebalancesPerHour: 13 }), 'rebalance-rate');
      expect(critical.severity).toBe('critical');
      expect(critical.evidence).toEqual({ rebalancesPerHour: 13, thresholdPerHour: 12 });
    });

    it('honours custom thresholds, ignoring undefined overrides', () => {
      const input = {
        ...healthy,
        rebalancesPerHour: 1,
        thresholds: { rebalancesPerHourWarn: 0.5, quarantineWarnMs: undefined },
      };
      expect(only(adviseGroup(input), 'rebalance-rate').evidence.thresholdPerHour).toBe(0.5);
    });
  });

  describe('eager protocol', () => {
    it('tells kafkajs users what they can do, since kafkajs only supports eager', () => {
      const advice = only(
        adviseGroup({
          ...healthy,
          rebalanceProtocol: 'eager',
          assignor: 'RoundRobinAssigner',
          client: KAFKAJS_CAPABILITIES,
        }),
        'eager-protocol',
      );
      expect(advice.severity).toBe('info');
      expect(advice.evidence).toEqual({ protocol: 'eager', assignor: 'RoundRobinAssigner', client: 'kafkajs' });
      expect(advice.detail).toContain('kafkajs supports only the eager protocol (no cooperative-sticky, no KIP-848)');
      expect(advice.detail).toMatch(/return from the batch handler at once/);
      expect(advice.detail).not.toMatch(/Switch to cooperative-sticky/);
    });

    it('recommends cooperative-sticky or KIP-848 for other clients', () => {
      const advice = only(adviseGroup({ ...healthy, rebalanceProtocol: 'eager', assignor: 'range' }), 'eager-protocol');
      expect(advice.detail).toMatch(/Switch to cooperative-sticky \(two rolling deploys/);
      expect(advice.detail).toMatch(/group\.protocol=consumer/);
      const noKip848 = {
        name: 'old-java',
        supportsCooperative: true,
        supportsStaticMembership: true,
        supportsKip848: false,
      };
      const older = only(
        adviseGroup({ ...healthy, rebalanceProtocol: 'eager', assignor: 'range', client: noKip848 }),
        'eager-protocol',
      );
      expect(older.detail).not.toMatch(/KIP-848/);
    });

    it('is a warning when rebalances are also frequent', () => {
      const advice = adviseGroup({ ...healthy, rebalanceProtocol: 'eager', rebalancesPerHour: 5 });
      expect(only(advice, 'eager-protocol').severity).toBe('warning');
    });

    it('does not fire for cooperative, KIP-848 or unknown protocols', () => {
      for (const rebalanceProtocol of ['cooperative', 'consumer', null] as const) {
        expect(ids(adviseGroup({ ...healthy, rebalanceProtocol }))).not.toContain('eager-protocol');
      }
    });

    it('classifies assignors', () => {
      expect(rebalanceProtocolOf('cooperative-sticky')).toBe('cooperative');
      expect(rebalanceProtocolOf('CooperativeStickyAssignor')).toBe('cooperative');
      expect(rebalanceProtocolOf('RoundRobinAssigner')).toBe('eager');
      expect(rebalanceProtocolOf('range')).toBe('eager');
      expect(rebalanceProtocolOf('')).toBeNull();
      expect(rebalanceProtocolOf(null)).toBeNull();
    });
  });

  describe('member ids changing at every restart', () => {
    it('recommends static membership when every observed restart got a new id', () => {
      const advice = only(
        adviseGroup({ ...healthy, memberRestarts: { restarts: 4, restartsWithNewMemberId: 4 } }),
        'member-id-churn',
      );
      expect(advice.severity).toBe('info');
      expect(advice.evidence).toEqual({ restarts: 4, restartsWithNewMemberId: 4 });
      expect(advice.detail).toMatch(/group\.instance\.id/);
      expect(advice.detail).toMatch(/session timeout longer than a restart/);
    });

    it('says kafkajs has no static membership and what to do instead', () => {
      const input = {
        ...healthy,
        client: KAFKAJS_CAPABILITIES,
        rebalancesPerHour: 4,
        memberRestarts: { restarts: 2, restartsWithNewMemberId: 2 },
      };
      const advice = only(adviseGroup(input), 'member-id-churn');
      expect(advice.severity).toBe('warning');
      expect(advice.detail).toMatch(/kafkajs has no static membership/);
      expect(advice.evidence.client).toBe('kafkajs');
    });

    it('does not fire when some restart kept its id, or with too few restarts', () => {
      expect(adviseGroup({ ...healthy, memberRestarts: { restarts: 4, restartsWithNewMemberId: 3 } })).toEqual([]);
      expect(adviseGroup({ ...healthy, memberRestarts: { restarts: 1, restartsWithNewMemberId: 1 } })).toEqual([]);
      expect(adviseGroup({ ...healthy, memberRestarts: { restarts: 0, restartsWithNewMemberId: 0 } })).toEqual([]);
    });

    it('stays silent when a new id carried a group.instance.id: static membership is in use', () => {
      expect(
        adviseGroup({
          ...healthy,
          memberRestarts: { restarts: 3, restartsWithNewMemberId: 3, staticMemberRestarts: 1 },
        }),
      ).toEqual([]);
    });

    it('names the window it counted over', () => {
      const memberRestarts = {
        restarts: 2,
        restartsWithNewMemberId: 2,
        staticMemberRestarts: 0,
        windowMs: 3_600_000,
        rejoinWithinMs: 300_000,
      };
      const advice = only(adviseGroup({ ...healthy, memberRestarts }), 'member-id-churn');
      expect(advice.evidence).toEqual({
        restarts: 2,
        restartsWithNewMemberId: 2,
        windowMs: 3_600_000,
        rejoinWithinMs: 300_000,
      });
      expect(advice.detail).toMatch(
        /^All 2 observed member restarts in the last 1 h came back as a new dynamic member/,
      );
    });
  });

  describe('lag concentrated in one partition', () => {
    it('fires when one partition holds most of a modest sum', () => {
      const partitions = [
        part(0, { lag: 9_500, timeLagMs: 1_200_000 }),
        ...[1, 2, 3, 4, 5].map((i) => part(i, { lag: 100 })),
      ];
      const advice = only(adviseGroup({ ...healthy, partitions }), 'lag-concentrated:orders-0');
      expect(advice.severity).toBe('warning');
      expect(advice.evidence).toEqual({
        topic: 'orders',
        partition: 0,
        partitionLag: 9_500,
        totalLag: 10_000,
        averageLag: 10_000 / 6,
        shareOfTotalLagPercent: 95,
        partitionsWithKnownLag: 6,
        timeLagMs: 1_200_000,
      });
      expect(advice.detail).toContain(
        "orders-0 holds 9,500 of the group's 10,000 records of lag (95%), 5.7 times the average over 6 partitions",
      );
      expect(advice.detail).toContain('its oldest waiting record is 20 min old');
    });

    it('does not fire when lag is spread, small, or unknown', () => {
      const spread = [part(0, { lag: 5_000 }), part(1, { lag: 4_000 }), part(2, { lag: 3_000 })];
      expect(adviseGroup({ ...healthy, partitions: spread, members: 3 })).toEqual([]);
      const small = [part(0, { lag: 999 }), part(1, { lag: 0 }), part(2, { lag: 0 })];
      expect(adviseGroup({ ...healthy, partitions: small, members: 3 })).toEqual([]);
      const single = [part(0, { lag: 50_000 }), part(1, { lag: null })];
      expect(adviseGroup({ ...healthy, partitions: single, members: 2 })).toEqual([]);
      const none = [part(0, { lag: 0 }), part(1, { lag: 0 })];
      expect(adviseGroup({ ...healthy, partitions: none, members: 2 })).toEqual([]);
    });

    it('fires exactly at the factor (3x the average) and not just below', () => {
      const at = [part(0, { lag: 3_000 }), part(1, { lag: 0 }), part(2, { lag: 0 })];
      expect(ids(adviseGroup({ ...healthy, partitions: at, members: 3 }))).toEqual(['lag-concentrated:orders-0']);
      const below = [part(0, { lag: 3_000 }), part(1, { lag: 1 }), part(2, { lag: 0 })];
      expect(adviseGroup({ ...healthy, partitions: below, members: 3 })).toEqual([]);
    });
  });

  describe('quarantine age', () => {
    it('warns above the threshold and is critical above the critical one, with the held record', () => {
      const partitions = [
        part(0, { quarantinedForMs: 25 * 60_000, quarantinedOffset: '1234', quarantineReason: 'missing result key' }),
        part(1, { quarantinedForMs: 2 * 3_600_000 }),
        part(2, { quarantinedForMs: 10 * 60_000 }), // exactly at the threshold: not above
        ...[3, 4, 5].map((i) => part(i)),
      ];
      const advice = adviseGroup({ ...healthy, partitions });
      expect(ids(advice)).toEqual(['quarantine-age:orders-1', 'quarantine-age:orders-0']);
      const warn = only(advice, 'quarantine-age:orders-0');
      expect(warn.severity).toBe('warning');
      expect(warn.evidence).toEqual({
        topic: 'orders',
        partition: 0,
        quarantinedForMs: 1_500_000,
        thresholdMs: 600_000,
        offset: '1234',
        reason: 'missing result key',
        lag: 100,
      });
      expect(warn.title).toBe('orders-0 quarantined for 25 min');
      expect(warn.detail).toContain('held at offset 1234 for 25 min (missing result key), longer than 10 min');
      expect(only(advice, 'quarantine-age:orders-1').severity).toBe('critical');
    });
  });

  it('orders advice critical first, then warning, then info', () => {
    const advice = adviseGroup({
      ...healthy,
      members: 8,
      rebalancesPerHour: 30,
      rebalanceProtocol: 'eager',
      assignor: 'RoundRobinAssigner',
      client: KAFKAJS_CAPABILITIES,
      partitions: [
        part(0, { arrivalRatePerSec: 500, lag: 90_000 }),
        ...[1, 2, 3, 4, 5].map((i) => part(i, { lag: 10 })),
      ],
      pollBudget: { maxBatchRecords: 500, slowRecordMs: 800, limitMs: 300_000, limitName: 'max.poll.interval.ms' },
      memberRestarts: { restarts: 5, restartsWithNewMemberId: 5 },
    });
    expect(advice.map((a) => `${a.severity} ${a.id}`)).toEqual([
      'critical hot-partition:orders-0',
      'critical poll-budget',
      'critical rebalance-rate',
      'warning eager-protocol',
      'warning member-id-churn',
      'warning lag-concentrated:orders-0',
      'info members-exceed-partitions',
    ]);
  });

  it('rejects negative or non-finite numbers', () => {
    const bad: AdviceInput[] = [
      { ...healthy, members: -1 },
      { ...healthy, perConsumerRatePerSec: Number.NaN },
      { ...healthy, rebalancesPerHour: Number.POSITIVE_INFINITY },
      { ...healthy, pollBudget: { maxBatchRecords: 1, slowRecordMs: -1, limitMs: 1, limitName: 'x' } },
      { ...healthy, partitions: [part(0, { lag: -5 })] },
      { ...healthy, partitions: [part(0, { quarantinedForMs: Number.NaN })] },
      { ...healthy, memberRestarts: { restarts: -1, restartsWithNewMemberId: 0 } },
      { ...healthy, thresholds: { lagConcentrationFactor: -1 } },
    ];
    for (const input of bad) expect(() => adviseGroup(input)).toThrow(RangeError);
  });
});
