import { describe, expect, it } from 'vitest';
import { planCapacity } from './capacity';
import {
  findConsumerCountChanges,
  summarizeScaling,
  type ConsumerCountChange,
  type GroupRoundTotals,
} from './scaling-efficiency';

/**
 * Synthetic rounds every 5 s: `consumers` per round and the committed records per second in the interval
 * ending at that round; log end stays far ahead (records waiting) unless `logEnd` is given.
 */
function rounds(
  spec: Array<{ consumers: number; perSec: number; count: number }>,
  logEnd = 1_000_000,
): GroupRoundTotals[] {
  const out: GroupRoundTotals[] = [];
  let committed = 0;
  let atMs = 0;
  for (const part of spec) {
    for (let i = 0; i < part.count; i += 1) {
      if (out.length > 0) committed += part.perSec * 5;
      out.push({ atMs, consumers: part.consumers, committedTotal: committed, logEndTotal: logEnd });
      atMs += 5_000;
    }
  }
  return out;
}

describe('findConsumerCountChanges', () => {
  it('measures a linear scale-out as efficiency 1', () => {
    const [change, ...rest] = findConsumerCountChanges(
      rounds([
        { consumers: 2, perSec: 100, count: 5 },
        { consumers: 4, perSec: 200, count: 5 },
      ]),
    );
    expect(rest).toEqual([]);
    expect(change).toMatchObject({
      atMs: 25_000,
      fromConsumers: 2,
      toConsumers: 4,
      beforePerSec: 100,
      afterPerSec: 200,
      speedup: 2,
      linearSpeedup: 2,
      efficiency: 1,
      samplesBefore: 5,
      samplesAfter: 5,
    });
  });

  it('measures "2 -> 4 consumers gave 1.3x, not 2x" as efficiency 0.3', () => {
    const [change] = findConsumerCountChanges(
      rounds([
        { consumers: 2, perSec: 100, count: 4 },
        { consumers: 4, perSec: 130, count: 4 },
      ]),
    );
    expect(change!.speedup).toBeCloseTo(1.3, 10);
    expect(change!.efficiency).toBeCloseTo(0.3, 10);
  });

  it('excludes the rebalance pause between the last round before and the first round after', () => {
    // The interval across the change commits nothing (the group stopped to rebalance).
    const r = rounds([
      { consumers: 1, perSec: 50, count: 4 },
      { consumers: 3, perSec: 0, count: 1 },
      { consumers: 3, perSec: 150, count: 3 },
    ]);
    const [change] = findConsumerCountChanges(r);
    expect(change!.afterPerSec).toBe(150);
    expect(change!.efficiency).toBeCloseTo(1, 10);
  });

  it('pairs runs across rounds without consumers (mid-rebalance) and measures scale-ins', () => {
    const r = rounds([
      { consumers: 4, perSec: 200, count: 4 },
      { consumers: 2, perSec: 120, count: 4 },
    ]);
    r.splice(4, 0, { atMs: 19_000, consumers: 0, committedTotal: r[3]!.committedTotal, logEndTotal: 1_000_000 });
    const [change] = findConsumerCountChanges(r);
    expect(change).toMatchObject({ fromConsumers: 4, toConsumers: 2, speedup: 0.6, linearSpeedup: 0.5 });
    expect(change!.efficiency).toBeCloseTo(0.8, 10);
  });

  it('measures from one settled count to the next across a transition of members joining one by one', () => {
    const [change, ...rest] = findConsumerCountChanges(
      rounds([
        { consumers: 1, perSec: 60, count: 5 },
        { consumers: 2, perSec: 60, count: 1 },
        { consumers: 3, perSec: 60, count: 2 },
        { consumers: 4, perSec: 61.2, count: 5 },
      ]),
    );
    expect(rest).toEqual([]);
    expect(change).toMatchObject({ fromConsumers: 1, toConsumers: 4, atMs: 40_000, linearSpeedup: 4 });
    expect(change!.speedup).toBeCloseTo(1.02, 10);
    expect(change!.efficiency).toBeCloseTo(0.02 / 3, 10);
  });

  it('ignores a side where the group ran out of records (throughput measured arrivals, not capacity)', () => {
    // 2 consumers commit everything that was waiting in the interval to the last before-round.
    const r = rounds([
      { consumers: 2, perSec: 100, count: 4 },
      { consumers: 4, perSec: 200, count: 4 },
    ]).map((round, i) => (i <= 3 ? { ...round, logEndTotal: round.committedTotal! + 10 } : round));
    expect(findConsumerCountChanges(r)).toEqual([]);
  });

  it('needs three rounds with records waiting on each side', () => {
    const short = rounds([
      { consumers: 1, perSec: 100, count: 2 },
      { consumers: 2, perSec: 200, count: 5 },
    ]);
    expect(findConsumerCountChanges(short)).toEqual([]);
    expect(findConsumerCountChanges(short, 2)).toHaveLength(1);
  });

  it('does not measure across an offset reset or unknown commits', () => {
    const r = rounds([
      { consumers: 1, perSec: 100, count: 4 },
      { consumers: 2, perSec: 200, count: 4 },
    ]);
    const reset = r.map((round, i) => (i >= 4 ? { ...round, committedTotal: round.committedTotal! - 1_500 } : round));
    expect(findConsumerCountChanges(reset)).toEqual([]);
    const unknown = r.map((round, i) => (i === 4 ? { ...round, committedTotal: null } : round));
    // The first after-round is unknown: three known rounds remain after it, still a change from 1 to 2.
    expect(findConsumerCountChanges(unknown)).toHaveLength(1);
  });

  it('rejects rounds out of order and non-finite numbers with a clear error', () => {
    const r = rounds([{ consumers: 1, perSec: 1, count: 2 }]);
    expect(() => findConsumerCountChanges([r[1]!, r[0]!])).toThrow(/oldest first/);
    expect(() => findConsumerCountChanges([{ ...r[0]!, consumers: Number.NaN }])).toThrow(/non-finite/);
  });
});

const change = (over: Partial<ConsumerCountChange>): ConsumerCountChange => ({
  atMs: 0,
  fromConsumers: 1,
  toConsumers: 3,
  beforePerSec: 100,
  afterPerSec: 102,
  speedup: 1.02,
  linearSpeedup: 3,
  efficiency: 0.01,
  samplesBefore: 4,
  samplesAfter: 4,
  ...over,
});

describe('summarizeScaling', () => {
  it('says the plan assumes linear scaling when nothing was measured', () => {
    const none = summarizeScaling([], 1_000);
    expect(none).toMatchObject({ basis: 'assumed-linear', efficiency: 1, sampleSize: 0, ageMs: null });
    expect(none.statement).toMatch(/assumes linear scaling/);
  });

  it('states the measured efficiency with its sample size and age, clamped to 0..1', () => {
    const summary = summarizeScaling(
      [change({ atMs: 0, efficiency: -0.1 }), change({ atMs: 60_000, efficiency: 0.05 })],
      180_000,
    );
    expect(summary.basis).toBe('measured');
    expect(summary.efficiency).toBe(0);
    expect(summary.sampleSize).toBe(2);
    expect(summary.ageMs).toBe(120_000);
    expect(summary.statement).toBe(
      'Scaling measured: 1 → 3 consumers gave 1.02x, not 3x: something shared (a downstream, a rate limit) is the limit. ' +
        'The plan counts each added consumer at 0% of a linear one (mean of 2 measured changes, the latest 2 min ago).',
    );
    const linear = summarizeScaling([change({ speedup: 2.9, efficiency: 1.4 })], 0);
    expect(linear.efficiency).toBe(1);
    expect(linear.statement).toMatch(/^Scaling measured: 1 → 3 consumers gave 2\.9x, close to linear \(3x\)\. /);
  });
});

describe('planCapacity with measured scaling', () => {
  const partitions = [0, 1, 2, 3].map((partition) => ({ partition, arrivalRatePerSec: 0, backlog: 3_000 }));

  it('does not promise a faster catch-up from consumers that add nothing', () => {
    const linear = planCapacity({ partitions, consumers: 1, perConsumerRatePerSec: 100, targetCatchUpSec: 60 });
    expect(linear.recommendedConsumers).toBe(2);
    expect(linear.catchUpSec).toBe(60);
    const scaling = { efficiency: 0, statement: 'Scaling measured.' };
    const measured = planCapacity({
      partitions,
      consumers: 1,
      perConsumerRatePerSec: 100,
      targetCatchUpSec: 60,
      scaling,
    });
    // The group's 100/s stays 100/s at any count: 12,000 records take 2 min (3 min where one consumer has two).
    expect(measured.catchUpSecByConsumers.map((p) => p.catchUpSec)).toEqual([120, 120, 180, 120]);
    expect(measured.limitedByPartitions).toBe(true);
    expect(measured.noGainBeyond).toBe(1);
    expect(measured.summary).toContain(
      'More than 1 consumer would shorten the catch-up by less than 10%: the measured scaling says added consumers bring little throughput.',
    );
    expect(measured.summary).toContain('Scaling measured.');
  });

  it('counts each added consumer at the measured share', () => {
    const scaling = { efficiency: 0.5, statement: 'Half.' };
    const plan = planCapacity({ partitions, consumers: 2, perConsumerRatePerSec: 100, targetCatchUpSec: 0, scaling });
    // 4 consumers: 100 x (2 + 2 x 0.5) = 300/s for the group, 75/s each, 3,000 per consumer: 40 s.
    expect(plan.catchUpSecByConsumers[3]!.catchUpSec).toBe(40);
    expect(plan.catchUpSecByConsumers[1]!.catchUpSec).toBe(60);
    expect(() =>
      planCapacity({
        partitions,
        consumers: 2,
        perConsumerRatePerSec: 100,
        targetCatchUpSec: 0,
        scaling: { efficiency: 2, statement: '' },
      }),
    ).toThrow(/scaling.efficiency/);
  });

  it('says more consumers do not help when one partition holds most of the backlog', () => {
    const hot = [
      { partition: 0, arrivalRatePerSec: 0, backlog: 9_000 },
      { partition: 1, arrivalRatePerSec: 0, backlog: 500 },
      { partition: 2, arrivalRatePerSec: 0, backlog: 500 },
      { partition: 3, arrivalRatePerSec: 0, backlog: 500 },
    ];
    const plan = planCapacity({ partitions: hot, consumers: 1, perConsumerRatePerSec: 100, targetCatchUpSec: 30 });
    expect(plan.noGainBeyond).toBe(2);
    expect(plan.catchUpSecByConsumers.map((p) => p.catchUpSec)).toEqual([105, 95, 95, 90]);
    expect(plan.summary).toContain(
      'More than 2 consumers would shorten the catch-up by less than 10%: partition 0 holds 86% of the backlog and a partition is consumed by one consumer only.',
    );
  });
});

describe('the recommendation past the knee, from recorded rounds', () => {
  it('recommends fewer consumers than run when a measured shared limit makes the added one add nothing', () => {
    // The backtest's shared-limit group: one consumer committed 100/s, two committed 101/s (a store limit of
    // 100 records/s for all of them), 1 s rounds; 3,000 records left on each of 4 partitions.
    const recorded = rounds([
      { consumers: 1, perSec: 100, count: 6 },
      { consumers: 2, perSec: 101, count: 6 },
    ]);
    const scaling = summarizeScaling(findConsumerCountChanges(recorded), 60_000);
    expect(scaling.basis).toBe('measured');
    const plan = planCapacity({
      partitions: [0, 1, 2, 3].map((partition) => ({ partition, arrivalRatePerSec: 0, backlog: 3_000 })),
      consumers: 2,
      perConsumerRatePerSec: 50.5,
      targetCatchUpSec: 30,
      scaling: { efficiency: scaling.efficiency, statement: scaling.statement },
    });
    // 12,000 records at about 101/s whatever the count: 2 min or more, never within 30 s; one consumer alone
    // gets the group's throughput less the second one's 1%.
    expect(plan.limitedByPartitions).toBe(true);
    expect(plan.noGainBeyond).toBe(1);
    expect(plan.recommendedConsumers).toBe(1);
    expect(plan.summary).toMatch(
      /^No consumer count catches up within the 30 s target: 1 consumer would catch up in 1 min 59 s; 2 are running\. More than 1 consumer would shorten the catch-up by less than 10%: the measured scaling says added consumers bring little throughput\. Scaling measured: 1 → 2 consumers gave 1\.01x/,
    );
  });
});
