import { describe, expect, it } from 'vitest';
import { EMPTY_CLIENT_SETTINGS, parseClientSettings, resolveClientSettings } from '../advisor/client-settings';
import { estimateRebalancePause } from '../advisor/rebalance-pause';
import { findConsumerCountChanges, summarizeScaling, type GroupRoundTotals } from '../advisor/scaling-efficiency';
import { buildGroupAdvice, findOwnProcessingBound, measurePerConsumerRate, measurePollBudget } from './group-advice';
import { analyzeGroup, partitionKey, type LatestPartitionRow } from './group-analysis';
import type { SamplePoint } from './partition-analysis';

const WINDOW_MS = 60_000;
const EVERY_MS = 5_000;

interface FakePartition {
  topic?: string;
  partition: number;
  /** Records per second appended and committed. */
  arrival: number;
  consumption: number;
  /** Lag at the newest sample. */
  backlog: number | null;
  owner: string | null;
  stored?: Partial<LatestPartitionRow>;
}

/** A group sampled every 5 s for a minute, each partition growing and draining at the given rates. */
function fakeGroup(partitions: FakePartition[]) {
  const rows: LatestPartitionRow[] = [];
  const history = new Map<string, SamplePoint[]>();
  const count = WINDOW_MS / EVERY_MS + 1;
  for (const p of partitions) {
    const topic = p.topic ?? 'orders';
    const endLogEnd = 1_000_000;
    const points: SamplePoint[] = Array.from({ length: count }, (_, i) => {
      const back = count - 1 - i; // samples before the newest
      const logEnd = endLogEnd - back * p.arrival * (EVERY_MS / 1000);
      const committed = p.backlog === null ? null : endLogEnd - p.backlog - back * p.consumption * (EVERY_MS / 1000);
      return { atMs: i * EVERY_MS, logEndOffset: logEnd, committedOffset: committed };
    });
    history.set(partitionKey({ topic, partition: p.partition }), points);
    rows.push({
      topic,
      partition: p.partition,
      committedOffset: p.backlog === null ? null : BigInt(endLogEnd - p.backlog),
      logStartOffset: 0n,
      logEndOffset: BigInt(endLogEnd),
      lag: p.backlog === null ? null : BigInt(p.backlog),
      memberClientId: p.owner,
      memberHost: p.owner ? '/10.0.0.1' : null,
      timeLagMs: null,
      timeLagKind: null,
      exactTimeLagMs: null,
      arrivalRatePerSec: null,
      consumptionRatePerSec: null,
      ...p.stored,
    });
  }
  return { rows, history, nowMs: (count - 1) * EVERY_MS };
}

function analyze(
  partitions: FakePartition[],
  quarantined: Array<{ topic: string; partition: number }> = [],
  timeLagObjectiveMs: number | null = null,
) {
  const { rows, history, nowMs } = fakeGroup(partitions);
  return analyzeGroup({ rows, history, quarantined, timeLagObjectiveMs, rateWindowMs: WINDOW_MS, nowMs });
}

// The short-of-capacity group: 1,200 records/s over 6 partitions, 3 consumers at 300/s (150/s per partition), 30,000 behind each.
const seedPartitions: FakePartition[] = Array.from({ length: 6 }, (_, partition) => ({
  partition,
  arrival: 200,
  consumption: 150,
  backlog: 30_000,
  owner: `consumer-${Math.floor(partition / 2)}`,
}));

describe('analyzeGroup', () => {
  it('sums known lag, counts partitions without a commit and lists members with their partitions', () => {
    const analysis = analyze([
      { partition: 1, arrival: 1, consumption: 1, backlog: 7, owner: 'a' },
      { partition: 0, arrival: 1, consumption: 1, backlog: 5, owner: 'a' },
      { partition: 2, arrival: 1, consumption: 0, backlog: null, owner: 'b' },
    ]);
    expect(analysis.totalLag).toBe(12);
    expect(analysis.partitionsWithoutCommit).toBe(1);
    expect(analysis.partitions.map((p) => p.row.partition)).toEqual([0, 1, 2]);
    expect(analysis.members).toEqual([
      {
        memberId: null,
        clientId: 'a',
        host: '/10.0.0.1',
        name: 'a 10.0.0.1',
        partitions: [
          { topic: 'orders', partition: 0 },
          { topic: 'orders', partition: 1 },
        ],
      },
      {
        memberId: null,
        clientId: 'b',
        host: '/10.0.0.1',
        name: 'b 10.0.0.1',
        partitions: [{ topic: 'orders', partition: 2 }],
      },
    ]);
  });

  it('prefers the rates and time lag the sampler stored, and says so', () => {
    const analysis = analyze([
      {
        partition: 0,
        arrival: 10,
        consumption: 10,
        backlog: 100,
        owner: 'a',
        stored: { arrivalRatePerSec: 42, consumptionRatePerSec: 41, timeLagMs: 9_000, timeLagKind: 'interpolated' },
      },
      { partition: 1, arrival: 10, consumption: 10, backlog: 100, owner: 'a' },
    ]);
    const [stored, computed] = analysis.partitions;
    expect(stored).toMatchObject({
      arrivalRatePerSec: 42,
      consumptionRatePerSec: 41,
      ratesBasis: 'sampler',
      timeLag: { ms: 9_000, basis: 'sampler' },
    });
    expect(computed).toMatchObject({
      arrivalRatePerSec: 10,
      consumptionRatePerSec: 10,
      ratesBasis: 'lag-samples',
      timeLag: { kind: 'interpolated', basis: 'lag-samples' },
    });
    // 100 records behind at 10/s arriving: produced 10 s before the newest sample.
    expect(computed?.timeLag.ms).toBe(10_000);
    expect(analysis.worstTimeLag).toMatchObject({ partition: 1, ms: 10_000 });
  });

  it('reports a quarantined partition as QUARANTINED, and a time lag above the objective as WARN', () => {
    // Draining (12/s out, 10/s in): Burrow says OK; its waiting record is 10 s old.
    const partitions = [{ partition: 0, arrival: 10, consumption: 12, backlog: 100, owner: 'a' }];
    expect(analyze(partitions).partitions[0]?.timeLag.ms).toBe(10_000);
    expect(analyze(partitions, [{ topic: 'orders', partition: 0 }]).status.status).toBe('QUARANTINED');
    expect(analyze(partitions, [], 5_000).status.status).toBe('WARN');
    expect(analyze(partitions, [], 60_000).status.status).toBe('OK');
  });
});

describe('measurePerConsumerRate', () => {
  it('uses the mean of consumers that had a backlog on every partition throughout the window', () => {
    const rate = measurePerConsumerRate(analyze(seedPartitions), WINDOW_MS);
    expect(rate.ratePerSec).toBeCloseTo(300, 6);
    expect(rate.isLowerBound).toBe(false);
    expect(rate.basis).toMatch(/mean of 3 consumers/);
  });

  it('falls back to the busiest consumer as a lower bound when every consumer ran out of work', () => {
    const rate = measurePerConsumerRate(
      analyze([
        { partition: 0, arrival: 20, consumption: 20, backlog: 0, owner: 'a' },
        { partition: 1, arrival: 50, consumption: 50, backlog: 0, owner: 'b' },
      ]),
      WINDOW_MS,
    );
    expect(rate).toMatchObject({ ratePerSec: 50, isLowerBound: true });
    expect(rate.basis).toMatch(/busiest \(b 10\.0\.0\.1\).*lower bound/);
  });

  it('is unknown when nothing was committed in the window', () => {
    const rate = measurePerConsumerRate(
      analyze([{ partition: 0, arrival: 20, consumption: 0, backlog: 500, owner: 'a' }]),
      WINDOW_MS,
    );
    expect(rate.ratePerSec).toBeNull();
  });
});

describe('buildGroupAdvice', () => {
  const base = {
    cluster: 'default',
    groupId: 'g',
    sampledAt: new Date(WINDOW_MS),
    protocol: 'RoundRobinAssigner',
    windowMs: WINDOW_MS,
    targetCatchUpSec: 300,
    isWardenConsumer: false,
    rebalancesPerHour: 0,
    memberRestarts: null,
    clientSettings: resolveClientSettings(EMPTY_CLIENT_SETTINGS, 'g'),
    quarantines: [],
  };

  it('gives a STOP group advice that says what is wrong, never no advice', () => {
    // Every member left (state Empty) and the log end kept growing after the last commit.
    const { rows, history, nowMs } = fakeGroup(
      Array.from({ length: 3 }, (_, partition) => ({
        partition,
        arrival: 10,
        consumption: 0,
        backlog: 2_000,
        owner: null,
      })),
    );
    const analysis = analyzeGroup({
      rows,
      history,
      quarantined: [],
      timeLagObjectiveMs: null,
      rateWindowMs: WINDOW_MS,
      nowMs,
      groupState: 'Empty',
    });
    expect(analysis.status.status).toBe('ERR');
    const advice = buildGroupAdvice({ ...base, groupState: 'Empty', analysis });
    expect(advice.advice[0]).toMatchObject({ id: 'status:STOP', severity: 'critical' });
    expect(advice.advice[0]?.detail).toMatch(/no consumer of group g is running/);
  });

  it('plans the short-of-capacity group from measured samples: 6 consumers catch up in 5 min 15 s with the rebalance, 3 never do', () => {
    const advice = buildGroupAdvice({ ...base, targetCatchUpSec: 320, analysis: analyze(seedPartitions) });
    expect(advice.consumers).toBe(3);
    expect(advice.planState).toBe('planned');
    expect(advice.plan).toMatchObject({
      recommendedConsumers: 6,
      limitedByPartitions: false,
      idleConsumers: 0,
      hotPartitions: [],
    });
    // No rebalance on record: the default 5 s pause, during which each partition's 200/s arrive on top of its
    // 30,000: (30,000 + 1,000) / (300 - 200) + 5 = 315 s.
    expect(advice.rebalancePause).toMatchObject({ sec: 5, basis: 'default', sampleSize: 0 });
    expect(advice.plan?.catchUpSec).toBeCloseTo(315, 6);
    expect(advice.plan?.catchUpSecByConsumers.find((p) => p.consumers === 3)?.catchUpSec).toBeNull();
    expect(advice.plan?.summary).toMatch(/^Scale consumers to 6 to catch up in 5 min 15 s\./);
    expect(advice.plan?.summary).toContain('T counts a default 5 s pause for a change of the consumer count.');
    // A measured 2 s pause: (30,000 + 400) / 100 + 2 = 306 s.
    const measuredPause = buildGroupAdvice({
      ...base,
      targetCatchUpSec: 320,
      analysis: analyze(seedPartitions),
      rebalancePause: estimateRebalancePause([{ endedAtMs: 1, durationMs: 2_000, durationIsBound: false }]),
    });
    expect(measuredPause.plan?.catchUpSec).toBeCloseTo(306, 6);
    expect(advice.partitions[0]).toMatchObject({
      topic: 'orders',
      partition: 0,
      backlog: 30_000,
      hadBacklogThroughout: true,
    });
    expect(advice.advice.map((a) => a.id)).toContain('eager-protocol');
  });

  describe('a partition held back by its own processing (a hot key)', () => {
    // One consumer: partition 0 receives 18/s and processes 11/s (one key's records run one at a time), so
    // its lag grows, while partitions 1-3 are caught up: the consumer has capacity to spare.
    const hotKey: FakePartition[] = [
      { partition: 0, arrival: 18, consumption: 11, backlog: 400, owner: 'c1' },
      ...[1, 2, 3].map((partition) => ({ partition, arrival: 5, consumption: 5, backlog: 3, owner: 'c1' })),
    ];

    it('is found, advised on, and left out of the plan instead of asking for more consumers', () => {
      const analysis = analyze(hotKey);
      expect([...findOwnProcessingBound(analysis, new Set()).entries()]).toEqual([
        [
          partitionKey({ topic: 'orders', partition: 0 }),
          { arrivalRatePerSec: 18, consumptionRatePerSec: 11, sinceMs: 5_000 },
        ],
      ]);
      const advice = buildGroupAdvice({ ...base, analysis });
      const item = advice.advice.find((a) => a.id === 'own-processing-bound:orders-0');
      expect(item).toMatchObject({
        severity: 'warning',
        evidence: { arrivalRatePerSec: 18, consumptionRatePerSec: 11, lag: 400 },
      });
      expect(item?.detail).toMatch(/more consumers would not drain it/);
      expect(advice.notes.join(' ')).toMatch(
        /orders-0 is left out of the plan: it is held back by its own processing \(11\/s against 18\/s arriving\)/,
      );
      expect(advice.plan?.summary ?? advice.planUnavailableReason).not.toMatch(/Scale consumers to/);
    });

    it('is not found when the consumer has records waiting everywhere (the short-of-capacity group)', () => {
      expect(findOwnProcessingBound(analyze(seedPartitions), new Set()).size).toBe(0);
      const advice = buildGroupAdvice({ ...base, analysis: analyze(seedPartitions) });
      expect(advice.advice.some((a) => a.id.startsWith('own-processing-bound'))).toBe(false);
    });

    it('is not judged for a consumer reading one partition, nor for a partition quarantined, behind only briefly or draining', () => {
      expect(
        findOwnProcessingBound(
          analyze([{ partition: 0, arrival: 18, consumption: 11, backlog: 400, owner: 'c1' }]),
          new Set(),
        ).size,
      ).toBe(0);
      const analysis = analyze(hotKey);
      expect(findOwnProcessingBound(analysis, new Set([partitionKey({ topic: 'orders', partition: 0 })])).size).toBe(0);
      // Behind for two samples only (its backlog began 5 s ago): not yet judged.
      const brief = analyze([
        { partition: 0, arrival: 18, consumption: 11, backlog: 50, owner: 'c1' },
        ...hotKey.slice(1),
      ]);
      expect(findOwnProcessingBound(brief, new Set()).size).toBe(0);
      // Records waiting throughout, but draining now.
      const draining = analyze([
        { partition: 0, arrival: 11, consumption: 18, backlog: 400, owner: 'c1' },
        ...hotKey.slice(1),
      ]);
      expect(findOwnProcessingBound(draining, new Set()).size).toBe(0);
    });
  });

  it('names hot partitions by topic and partition, also across topics', () => {
    const analysis = analyze([
      { topic: 'a', partition: 0, arrival: 400, consumption: 150, backlog: 30_000, owner: 'c1' },
      { topic: 'b', partition: 0, arrival: 10, consumption: 150, backlog: 30_000, owner: 'c1' },
    ]);
    const advice = buildGroupAdvice({ ...base, analysis });
    expect(advice.plan?.hotPartitions).toEqual([{ topic: 'a', partition: 0 }]);
    expect(advice.plan?.catchUpSec).toBeNull();
    expect(advice.notes.join(' ')).toMatch(/several topics/);
    expect(advice.advice.find((a) => a.id === 'hot-partition:a-0')?.severity).toBe('critical');
  });

  it('explains why there is no plan when nothing was consumed, and reports a long quarantine', () => {
    const analysis = analyze([{ partition: 0, arrival: 5, consumption: 0, backlog: 500, owner: 'a' }]);
    const advice = buildGroupAdvice({
      ...base,
      analysis,
      isWardenConsumer: true,
      quarantines: [
        {
          topic: 'orders',
          partition: 0,
          offset: 999_500n,
          since: new Date(WINDOW_MS - 2 * 3_600_000),
          reason: 'no result key',
        },
      ],
    });
    expect(advice.plan).toBeNull();
    expect(advice.planState).toBe('unavailable');
    expect(advice.planUnavailableReason).toBe('Every partition is quarantined: resolve the quarantines first.');
    expect(buildGroupAdvice({ ...base, analysis }).planUnavailableReason).toMatch(
      /^No processing rate measured \(fewer than two commits/,
    );
    const quarantine = advice.advice.find((a) => a.id === 'quarantine-age:orders-0');
    expect(quarantine).toMatchObject({ severity: 'critical', evidence: { offset: '999500' } });
    expect(advice.advice.find((a) => a.id === 'eager-protocol')?.detail).toMatch(
      /kafkajs supports only the eager protocol/,
    );
  });

  it('does not plan scaling for a group that keeps up: its rate is only a lower bound', () => {
    const analysis = analyze([
      { partition: 0, arrival: 20, consumption: 20, backlog: 3, owner: 'a' },
      { partition: 1, arrival: 20, consumption: 20, backlog: 2, owner: 'a' },
    ]);
    const advice = buildGroupAdvice({ ...base, analysis });
    expect(advice.perConsumerRate).toMatchObject({ ratePerSec: 40, isLowerBound: true });
    expect(advice.plan).toBeNull();
    expect(advice.planState).toBe('keeping-up');
    expect(advice.planUnavailableReason).toMatch(/^Keeping up with 1 consumer\. No consumer had records waiting/);
    // Nor is a partition "hot" merely for matching what an idle-at-times consumer did.
    expect(advice.advice.filter((a) => a.id.startsWith('hot-partition'))).toEqual([]);
  });

  it('still plans, flagged, when nobody was saturated but the lag grows', () => {
    const analysis = analyze([
      { partition: 0, arrival: 30, consumption: 0, backlog: 5_000, owner: 'a' },
      { partition: 1, arrival: 5, consumption: 10, backlog: 0, owner: 'b' },
    ]);
    const advice = buildGroupAdvice({ ...base, analysis });
    expect(advice.perConsumerRate).toMatchObject({ ratePerSec: 10, isLowerBound: true });
    expect(advice.plan?.rateIsLowerBound).toBe(true);
    expect(advice.plan?.summary).toMatch(/only a lower bound/);
  });

  it('leaves quarantined partitions out of the rate and the plan: their backlog waits for an operator', () => {
    // One consumer keeping up with partition 0 while partition 1 is held and its backlog grows.
    const analysis = analyze([
      { partition: 0, arrival: 20, consumption: 20, backlog: 2, owner: 'a' },
      { partition: 1, arrival: 20, consumption: 0, backlog: 5_000, owner: 'a' },
    ]);
    const quarantines = [{ topic: 'orders', partition: 1, offset: 995_000n, since: new Date(0), reason: 'bad record' }];
    const advice = buildGroupAdvice({ ...base, analysis, isWardenConsumer: true, quarantines });
    expect(advice.perConsumerRate).toMatchObject({ ratePerSec: 20, isLowerBound: true });
    expect(advice.planState).toBe('keeping-up');
    expect(advice.notes).toContain(
      '1 quarantined partition is left out of the plan: it waits for an operator, not for more consumers.',
    );
    // Without knowing about the quarantine, the held backlog looks like a saturated consumer.
    expect(buildGroupAdvice({ ...base, analysis }).perConsumerRate.isLowerBound).toBe(false);
  });

  describe('right after a scale-out under a shared limit (the backtest run that promised 26.5 s and took 40.1 s)', () => {
    // Recorded from that run: one consumer drained 88.6/s for 20 rounds of 1 s, then 1 → 3 consumers drained
    // 86/s together (the store's limit is shared). Three rounds after the scale-out the 20 s rate window still
    // held mostly the single consumer's work on partitions the new members own now: two members with records
    // waiting measured 54/s each; the third owns partition 3, drained before the scale-out.
    const totals: GroupRoundTotals[] = Array.from({ length: 24 }, (_, i) => ({
      atMs: i * 1_000,
      consumers: i < 20 ? 1 : 3,
      committedTotal: i < 20 ? i * 88.6 : 19 * 88.6 + (i - 19) * 86,
      logEndTotal: 6_000,
    }));
    const scaling = summarizeScaling(findConsumerCountChanges(totals), 23_000);
    const analysis = analyze([
      { partition: 0, arrival: 0, consumption: 27, backlog: 1_431, owner: 'a' },
      { partition: 1, arrival: 0, consumption: 27, backlog: 883, owner: 'a' },
      { partition: 2, arrival: 0, consumption: 54, backlog: 1_428, owner: 'b' },
      { partition: 3, arrival: 0, consumption: 0, backlog: 0, owner: 'c' },
    ]);
    const pause = estimateRebalancePause([{ endedAtMs: 20_000, durationMs: 2_100, durationIsBound: true }]);

    it('counts each consumer at the group drain it delivered since the change, not at the window mean', () => {
      expect(scaling.latest).toMatchObject({ fromConsumers: 1, toConsumers: 3 });
      const unseen = buildGroupAdvice({ ...base, analysis, rebalancePause: pause });
      expect(unseen.perConsumerRate.ratePerSec).toBeCloseTo(54, 6);
      // Without the measured change: 1,431 / 54 = 26.5 s at 3 consumers, the promise the run broke.
      expect(unseen.plan?.catchUpSecByConsumers[2]?.catchUpSec).toBeCloseTo(1_431 / 54, 6);

      const seen = buildGroupAdvice({ ...base, analysis, scaling, rebalancePause: pause });
      expect(seen.perConsumerRate.ratePerSec).toBeCloseTo(86 / 3, 1);
      expect(seen.perConsumerRate.basis).toMatch(
        /^the group's 86\/s since it went 1 → 3 consumers, shared by 3 consumers; the mean of 2 consumers/,
      );
      const atThree = seen.plan?.catchUpSecByConsumers[2]?.catchUpSec ?? 0;
      expect(atThree).toBeCloseTo(1_431 / (86 / 3), 0);
      // The run's measured catch-up at 3 consumers: the plan no longer promises sooner.
      expect(atThree).toBeGreaterThan(40.1);
    });

    it('leaves the rate alone when the group now runs another count than the measured change went to', () => {
      const twoMembers = analyze([
        { partition: 0, arrival: 0, consumption: 54, backlog: 1_431, owner: 'a' },
        { partition: 1, arrival: 0, consumption: 54, backlog: 1_428, owner: 'b' },
      ]);
      expect(buildGroupAdvice({ ...base, analysis: twoMembers, scaling }).perConsumerRate.ratePerSec).toBeCloseTo(
        54,
        6,
      );
    });
  });

  describe('retention', () => {
    // Six partitions of 120 records/s, each read at 100/s by 3 consumers of two partitions (200/s each,
    // saturated): only six consumers catch up, each partition alone: (30,000 + 120 x 5) / (200 - 120) + 5 =
    // 387.5 s. Partition 4's oldest unread record is `ageSec` old of a 3 h retention.
    const retention = new Map([
      [
        'orders',
        {
          cleanupPolicy: 'delete',
          retentionMs: 3 * 3_600_000,
          retentionBytes: -1,
          segmentMs: 30 * 60_000,
          segmentBytes: 1_073_741_824,
          checkIntervalMs: 5 * 60_000,
          recordBytes: null,
          readError: null,
        },
      ],
    ]);
    const atRisk = (ageSec: number, quarantined: Array<{ topic: string; partition: number }> = []) => {
      const { rows, history, nowMs } = fakeGroup(
        Array.from({ length: 6 }, (_, partition) => ({
          partition,
          arrival: 120,
          consumption: 100,
          backlog: 30_000,
          owner: `consumer-${Math.floor(partition / 2)}`,
          stored: { exactTimeLagMs: partition === 4 ? ageSec * 1000 : 60_000 },
        })),
      );
      return analyzeGroup({
        rows,
        history,
        quarantined,
        timeLagObjectiveMs: null,
        rateWindowMs: WINDOW_MS,
        nowMs,
        retention,
      });
    };

    it('says when unread records start going, and that the plan reads them first', () => {
      // Unread, partition 4's oldest record could go in 3 h - 2 h 40 min = 20 min, after the 387.5 s drain.
      const advice = buildGroupAdvice({ ...base, targetCatchUpSec: 3_600, analysis: atRisk(9_600) });
      expect(advice.plan?.recommendedConsumers).toBe(6);
      expect(advice.retention).toMatchObject({ state: 'in-time', consumers: 6, willBeLost: [] });
      // Soonest first; the others fall behind too, more slowly.
      expect(advice.retention?.partitions).toHaveLength(6);
      expect(advice.retention?.partitions[0]).toEqual({
        topic: 'orders',
        partition: 4,
        fromOffset: '970000',
        earliestMs: 7_200_000,
        latestMs: 19_800_000,
        earliestAt: '1970-01-01T02:01:00.000Z',
        latestAt: '1970-01-01T05:31:00.000Z',
        deadlineMs: 1_200_000,
        drainSec: 387.5,
        inTime: true,
        held: null,
      });
      // At the current pace it ages 1/6 s per second: (3 h - 2 h 40 min) x 6 = 2 h, at the latest 35 min more x 6.
      expect(advice.retention?.statement).toBe(
        'In 2 h to 5 h 30 min records of orders-4 start being deleted unread (around 02:01 UTC); 5 more partitions later. ' +
          "The plan's 6 consumers read every planned partition at risk first: it catches up in 6 min 28 s.",
      );
    });

    it('says which records will go when no count reads them first, and how fast', () => {
      // Unread, its oldest record could go in 5 min: even alone on a consumer it takes 387.5 s.
      const advice = buildGroupAdvice({ ...base, targetCatchUpSec: 3_600, analysis: atRisk(10_500) });
      expect(advice.retention).toMatchObject({
        state: 'none-can',
        willBeLost: [{ topic: 'orders', partition: 4, fromOffset: '970000', perMinute: 1_200 }],
      });
      expect(advice.retention?.statement).toBe(
        'In 30 min to 4 h records of orders-4 start being deleted unread (around 00:31 UTC); 5 more partitions later. ' +
          'No consumer count reads all of them first: a partition is read by one consumer at a time. ' +
          'Records of orders-4 from offset 970,000 start being deleted unread around 00:31 UTC, about 1,200 a minute after that.',
      );
      expect(advice.plan?.summary).toContain('No consumer count reads partition 4 before retention can delete');
    });

    it('names a quarantined partition at risk: only its release saves it', () => {
      const advice = buildGroupAdvice({
        ...base,
        targetCatchUpSec: 3_600,
        analysis: atRisk(10_500, [{ topic: 'orders', partition: 4 }]),
        quarantines: [{ topic: 'orders', partition: 4, offset: 970_000n, since: new Date(0), reason: 'bad record' }],
      });
      expect(advice.retention?.partitions[0]).toMatchObject({ partition: 4, held: 'quarantined', inTime: null });
      expect(advice.retention?.statement).toContain(
        'orders-4 is quarantined: records of orders-4 from offset 970,000 start being deleted unread around 00:31 UTC, about 1,200 a minute after that, unless it is released first.',
      );
    });

    it('is null when nothing is at risk', () => {
      expect(buildGroupAdvice({ ...base, analysis: analyze(seedPartitions) }).retention).toBeNull();
    });
  });

  describe('a partition the group never committed', () => {
    // One consumer drains partition 0 (2,000 behind, 5/s arriving) at 20/s; partition 1 has 1,000 records in
    // its log (start 999,000, end 1,000,000) and no commit: what the group reads there depends on its reset policy.
    const analysis = analyze([
      { partition: 0, arrival: 5, consumption: 20, backlog: 2_000, owner: 'a' },
      { partition: 1, arrival: 5, consumption: 0, backlog: null, owner: 'a', stored: { logStartOffset: 999_000n } },
    ]);
    const withReset = (policy: 'earliest' | 'latest') =>
      resolveClientSettings(parseClientSettings(JSON.stringify({ g: { autoOffsetReset: policy } })), 'g');

    it('says the plan is no promise when the reset policy is unknown, and what the log start would take', () => {
      const advice = buildGroupAdvice({ ...base, analysis });
      // The rate is measured on the partition the member committed, not lost to the one it never did.
      expect(advice.perConsumerRate).toMatchObject({ ratePerSec: 20, isLowerBound: false });
      expect(advice.partitions[1]).toMatchObject({ backlog: null, backlogBasis: 'unknown' });
      // Counted as empty: 2,000 / (20 - 10) = 200 s; from the log start 3,000 / 10 = 300 s.
      expect(advice.plan).toMatchObject({ recommendedConsumers: 1, catchUpSec: 200 });
      expect(advice.offsetReset).toMatchObject({
        policy: null,
        uncommittedPartitions: 1,
        recordsFromLogStart: 1_000,
        catchUpSecFromLogStart: 300,
      });
      expect(advice.offsetReset.statement).toBe(
        'T is not a promise: 1 partition never committed, and auto.offset.reset unknown: the broker cannot tell it ' +
          'and ADVISOR_CLIENT_SETTINGS does not set autoOffsetReset for the group, so the plan counts it as empty ' +
          '(auto.offset.reset=latest). From the log start they hold 1,000 records: 1 consumer would then take 5 min. ' +
          'Set "autoOffsetReset" for the group in ADVISOR_CLIENT_SETTINGS.',
      );
    });

    it('counts the log from its start under earliest, and nothing under latest', () => {
      const earliest = buildGroupAdvice({ ...base, analysis, clientSettings: withReset('earliest') });
      expect(earliest.partitions[1]).toMatchObject({ backlog: 1_000, backlogBasis: 'log-start' });
      expect(earliest.plan).toMatchObject({ recommendedConsumers: 1, catchUpSec: 300 });
      expect(earliest.offsetReset).toMatchObject({ policy: 'earliest', catchUpSecFromLogStart: null });
      expect(earliest.offsetReset.statement).toBe(
        '1 partition never committed: counted from the log start (1,000 records), auto.offset.reset earliest ' +
          '(ADVISOR_CLIENT_SETTINGS "g").',
      );
      const latest = buildGroupAdvice({ ...base, analysis, clientSettings: withReset('latest') });
      expect(latest.partitions[1]).toMatchObject({ backlog: 0, backlogBasis: 'log-end' });
      expect(latest.plan).toMatchObject({ recommendedConsumers: 1, catchUpSec: 200 });
      expect(latest.offsetReset.statement).toMatch(
        /^1 partition never committed: counted as empty \(the group starts at the log end\)/,
      );
    });

    it("knows Warden's own worker starts at the log start", () => {
      const advice = buildGroupAdvice({ ...base, analysis, isWardenConsumer: true });
      expect(advice.offsetReset).toMatchObject({
        policy: 'earliest',
        basis: expect.stringMatching(/^Warden's worker/),
      });
      expect(advice.plan?.catchUpSec).toBe(300);
    });

    it('has nothing to say when every partition committed', () => {
      const advice = buildGroupAdvice({ ...base, analysis: analyze(seedPartitions) });
      expect(advice.offsetReset).toMatchObject({ uncommittedPartitions: 0, recordsFromLogStart: 0, statement: null });
      expect(advice.partitions.every((p) => p.backlogBasis === 'committed')).toBe(true);
    });
  });

  describe('poll budget', () => {
    // The slow-poll scenario: a member that takes 0.8 s per record, with records waiting, and the Java defaults assumed.
    const slow = [{ partition: 0, arrival: 2, consumption: 1.25, backlog: 10_000, owner: 'slow' }];

    it("measures the slow-poll scenario's 500 x 0.8 s = 400 s against 300 s from samples: a rebalance loop, with what was assumed", () => {
      const advice = buildGroupAdvice({ ...base, analysis: analyze(slow) });
      const budget = advice.advice.find((a) => a.id === 'poll-budget');
      expect(budget).toMatchObject({
        severity: 'critical',
        evidence: {
          maxBatchRecords: 500,
          slowRecordMs: 800,
          batchWorstCaseMs: 400_000,
          limitMs: 300_000,
          limitName: 'max.poll.interval.ms',
          suggestedMaxBatchRecords: 300,
          assumed:
            'max.poll.records 500 (Java client default) as the batch size (a member with records waiting gets full batches) ' +
            'and max.poll.interval.ms 300000 (Java client default) as the limit',
        },
      });
      expect(budget?.evidence.slowRecordMsBasis).toMatch(
        /^mean estimate, 1 \/ 1\.25 records\/s committed by slow 10\.0\.0\.1, the slowest of 1 member with records waiting throughout the last 1 min; single records may take longer$/,
      );
      expect(budget?.detail).toMatch(/500 records x 800 ms = 6 min 40 s, over the 5 min max\.poll\.interval\.ms/);
    });

    it('uses the configured settings of the group, and the slowest saturated member', () => {
      const table = parseClientSettings('{"/^g$/": {"maxPollRecords": 100}}');
      const members = [
        { clientId: 'a', host: '/h', ratePerSec: 10, saturated: true },
        { clientId: 'b', host: '/h', ratePerSec: 0.4, saturated: false }, // ran out of work: not measured
        { clientId: 'c', host: null, ratePerSec: 4, saturated: true },
      ];
      const { budget, note } = measurePollBudget(members, resolveClientSettings(table, 'g'), WINDOW_MS, false);
      expect(note).toBeNull();
      expect(budget).toMatchObject({ maxBatchRecords: 100, slowRecordMs: 250, limitMs: 300_000 });
      expect(budget?.slowRecordBasis).toMatch(/committed by c, the slowest of 2 members/);
      expect(budget?.assumed).toMatch(/^max\.poll\.records 100 \(ADVISOR_CLIENT_SETTINGS "\/\^g\$\/"\)/);
    });

    it('is not measured when no member had records waiting throughout', () => {
      const members = [{ clientId: 'a', host: '/h', ratePerSec: 0.1, saturated: false }];
      expect(measurePollBudget(members, resolveClientSettings(EMPTY_CLIENT_SETTINGS, 'g'), WINDOW_MS, false)).toEqual({
        budget: null,
        note: null,
      });
      const keepingUp = buildGroupAdvice({
        ...base,
        analysis: analyze([{ partition: 0, arrival: 1, consumption: 1, backlog: 1, owner: 'a' }]),
      });
      expect(keepingUp.advice.find((a) => a.id === 'poll-budget')).toBeUndefined();
    });

    it("does not apply to Warden's own consumer, and says why", () => {
      const advice = buildGroupAdvice({ ...base, analysis: analyze(slow), isWardenConsumer: true });
      expect(advice.advice.find((a) => a.id === 'poll-budget')).toBeUndefined();
      expect(advice.notes).toContainEqual(
        expect.stringMatching(/^Poll budget does not apply: the Warden consumer core hands each fetched batch off/),
      );
    });
  });

  it('passes the member restarts counted from the rebalance history on to the advice', () => {
    const memberRestarts = {
      restarts: 3,
      restartsWithNewMemberId: 3,
      staticMemberRestarts: 0,
      windowMs: 3_600_000,
      rejoinWithinMs: 300_000,
    };
    const advice = buildGroupAdvice({ ...base, analysis: analyze(seedPartitions), memberRestarts });
    expect(advice.advice.find((a) => a.id === 'member-id-churn')?.evidence).toMatchObject({
      restarts: 3,
      restartsWithNewMemberId: 3,
      windowMs: 3_600_000,
    });
    expect(
      buildGroupAdvice({ ...base, analysis: analyze(seedPartitions) }).advice.find((a) => a.id === 'member-id-churn'),
    ).toBeUndefined();
  });
});
