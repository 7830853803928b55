import { describe, expect, it } from 'vitest';
import {
  assignPartitions,
  findNoGainBeyond,
  type CapacityInput,
  consumerCatchUpSec,
  groupCatchUpSec,
  type PartitionLoad,
  planCapacity,
} from './capacity';
import { seededRandom } from '../../test-support/seeded-random';

const uniform = (count: number, arrivalRatePerSec: number, backlog: number): PartitionLoad[] =>
  Array.from({ length: count }, (_, partition) => ({ partition, arrivalRatePerSec, backlog }));

// The short-of-capacity group: 1,200 records/s over 6 partitions, 30,000 behind on each, 300 records/s per consumer.
const seed: CapacityInput = {
  partitions: uniform(6, 200, 30_000),
  consumers: 3,
  perConsumerRatePerSec: 300,
  targetCatchUpSec: 300,
};

describe('consumerCatchUpSec', () => {
  it('follows the per-consumer model', () => {
    expect(consumerCatchUpSec(200, 30_000, 300)).toBe(300); // b / (rate - a)
    expect(consumerCatchUpSec(200, 0, 300)).toBe(0);
    expect(consumerCatchUpSec(300, 0, 300)).toBe(0); // exactly keeps up, nothing behind
    expect(consumerCatchUpSec(300, 1, 300)).toBeNull(); // exactly keeps up, never drains
    expect(consumerCatchUpSec(400, 0, 300)).toBeNull(); // falls behind even from zero
    expect(consumerCatchUpSec(400, 10, 300)).toBeNull();
  });

  it('treats float sums that equal the rate as equal', () => {
    expect(consumerCatchUpSec(0.1 + 0.2, 0, 0.3)).toBe(0);
    expect(consumerCatchUpSec(100.1 + 199.9, 5, 300)).toBeNull();
  });
});

describe('assignPartitions', () => {
  it('places partitions largest arrival first onto the least-loaded consumer', () => {
    const partitions = [
      { partition: 0, arrivalRatePerSec: 10, backlog: 1 },
      { partition: 1, arrivalRatePerSec: 50, backlog: 2 },
      { partition: 2, arrivalRatePerSec: 30, backlog: 4 },
      { partition: 3, arrivalRatePerSec: 25, backlog: 8 },
    ];
    // 1 (50) -> c0; 2 (30) -> c1; 3 (25) -> c1 (30 < 50) = 55; 0 (10) -> c0 (50 < 55) = 60.
    expect(assignPartitions(partitions, 2)).toEqual([
      { partitions: [1, 0], arrivalRatePerSec: 60, backlog: 3 },
      { partitions: [2, 3], arrivalRatePerSec: 55, backlog: 12 },
    ]);
  });

  it('breaks ties by lower partition number and lower consumer index', () => {
    const loads = assignPartitions(uniform(4, 100, 0).reverse(), 3);
    expect(loads.map((l) => l.partitions)).toEqual([[0, 3], [1], [2]]);
  });

  it('spreads partitions without arrivals by count instead of piling them onto consumer 0', () => {
    const loads = assignPartitions(uniform(4, 0, 1_000), 2);
    expect(loads.map((l) => l.partitions)).toEqual([
      [0, 2],
      [1, 3],
    ]);
    expect(groupCatchUpSec(uniform(4, 0, 1_000), 4, 100)).toBe(10);
  });

  it('gives consumers beyond the partition count nothing', () => {
    expect(assignPartitions(uniform(2, 5, 5), 3)[2]).toEqual({ partitions: [], arrivalRatePerSec: 0, backlog: 0 });
    expect(assignPartitions(uniform(2, 5, 5), 0)).toEqual([]);
  });
});

describe('planCapacity', () => {
  it('plans the short-of-capacity group: 3 never catch up, 6 catch up in 300 s, a 7th idles', () => {
    const plan = planCapacity(seed);
    expect(plan.recommendedConsumers).toBe(6);
    expect(plan.catchUpSec).toBe(300);
    expect(plan.limitedByPartitions).toBe(false);
    expect(plan.idleConsumers).toBe(0);
    expect(plan.hotPartitions).toEqual([]);
    expect(plan.catchUpSecByConsumers).toEqual([
      { consumers: 1, catchUpSec: null },
      { consumers: 2, catchUpSec: null },
      { consumers: 3, catchUpSec: null }, // 400/s per consumer against 300/s: 100/s further behind each
      { consumers: 4, catchUpSec: null }, // two consumers still carry 400/s
      { consumers: 5, catchUpSec: null },
      { consumers: 6, catchUpSec: 300 },
    ]);
    expect(plan.summary).toBe('Scale consumers to 6 to catch up in 5 min. At the current 3 it never catches up.');

    const seven = planCapacity({ ...seed, consumers: 7 });
    expect(seven.idleConsumers).toBe(1);
    expect(seven.recommendedConsumers).toBe(6);
    expect(seven.summary).toBe(
      '6 consumers would be enough to catch up in 5 min; 7 are running. 1 of the 7 current consumers is idle: there are only 6 partitions.',
    );
  });

  it('compares per consumer, not group totals', () => {
    // Totals: 3 x 300/s = 900/s capacity against 600/s arrivals looks fine, yet with 3 consumers on 4
    // partitions one consumer carries 300/s and never drains its backlog.
    const partitions = uniform(4, 150, 1_000);
    const plan = planCapacity({ partitions, consumers: 3, perConsumerRatePerSec: 300, targetCatchUpSec: 600 });
    expect(plan.catchUpSecByConsumers[2]).toEqual({ consumers: 3, catchUpSec: null });
    expect(plan.recommendedConsumers).toBe(4);
    expect(plan.catchUpSec).toBeCloseTo(1_000 / 150);
  });

  it('recommends the smallest count within the target, the target itself included', () => {
    // 4 partitions x 50/s, 6,000 behind each, 200/s per consumer. 2 consumers: 100/s, 12,000 -> 120 s.
    // 1 consumer: 200/s, never. 4 consumers: 6,000 / 150 = 40 s.
    const partitions = uniform(4, 50, 6_000);
    const at = (targetCatchUpSec: number) =>
      planCapacity({ partitions, consumers: 1, perConsumerRatePerSec: 200, targetCatchUpSec });
    expect(at(120).recommendedConsumers).toBe(2);
    expect(at(119.9).recommendedConsumers).toBe(4);
    expect(at(119.9).catchUpSec).toBe(40);
    expect(at(120).summary).toBe('Scale consumers to 2 to catch up in 2 min. At the current 1 it never catches up.');
  });

  it('says to keep the current count when it is already the smallest within target', () => {
    const plan = planCapacity({ ...seed, consumers: 6 });
    expect(plan.summary).toBe('Keep 6 consumers: they are enough to catch up in 5 min.');
  });

  it('keeps up with no backlog at the smallest count that does not fall behind', () => {
    const plan = planCapacity({
      partitions: uniform(3, 100, 0),
      consumers: 0,
      perConsumerRatePerSec: 250,
      targetCatchUpSec: 60,
    });
    expect(plan.recommendedConsumers).toBe(2);
    expect(plan.catchUpSec).toBe(0);
    expect(plan.summary).toBe('Scale consumers to 2 to keep up (no backlog to catch up).');
    const one = planCapacity({
      partitions: uniform(1, 10, 0),
      consumers: 1,
      perConsumerRatePerSec: 250,
      targetCatchUpSec: 60,
    });
    expect(one.summary).toBe('Keep 1 consumer: it is enough to keep up (no backlog to catch up).');
  });

  it('is limited by partitions when even one consumer per partition misses the target', () => {
    const plan = planCapacity({ ...seed, consumers: 3, targetCatchUpSec: 120 });
    expect(plan.limitedByPartitions).toBe(true);
    expect(plan.recommendedConsumers).toBe(6);
    expect(plan.catchUpSec).toBe(300);
    expect(plan.summary).toBe(
      'Even 6 consumers (one per partition) need 5 min to catch up, over the 2 min target: scale to 6 and make processing faster or add partitions.',
    );
    expect(planCapacity({ ...seed, consumers: 6, targetCatchUpSec: 120 }).summary).toBe(
      'Even 6 consumers (one per partition) need 5 min to catch up, over the 2 min target: make processing faster or add partitions.',
    );
  });

  it('says honestly that no count helps when a hot partition outruns one consumer', () => {
    const partitions = [
      { partition: 0, arrivalRatePerSec: 50, backlog: 100 },
      { partition: 1, arrivalRatePerSec: 400, backlog: 5_000 },
      { partition: 2, arrivalRatePerSec: 50, backlog: 100 },
    ];
    const plan = planCapacity({ partitions, consumers: 2, perConsumerRatePerSec: 300, targetCatchUpSec: 300 });
    expect(plan.hotPartitions).toEqual([1]);
    expect(plan.limitedByPartitions).toBe(true);
    expect(plan.recommendedConsumers).toBe(3);
    expect(plan.catchUpSec).toBeNull();
    expect(plan.catchUpSecByConsumers.every((p) => p.catchUpSec === null)).toBe(true);
    expect(plan.summary).toBe(
      'No consumer count catches up: partition 1 receives 400/s and one consumer processes 300/s; a partition is ' +
        'consumed by one consumer only, so adding consumers cannot help. Re-key or move the hot key, or make processing faster.',
    );
  });

  it('counts a partition exactly at one consumer rate as hot, and warns it cannot absorb a backlog', () => {
    const partitions = [
      { partition: 0, arrivalRatePerSec: 300, backlog: 0 },
      { partition: 1, arrivalRatePerSec: 100, backlog: 2_000 },
    ];
    const plan = planCapacity({ partitions, consumers: 2, perConsumerRatePerSec: 300, targetCatchUpSec: 60 });
    expect(plan.hotPartitions).toEqual([0]);
    expect(plan.recommendedConsumers).toBe(2);
    expect(plan.catchUpSec).toBe(10);
    expect(plan.summary).toBe(
      'Keep 2 consumers: they are enough to catch up in 10 s. partition 0 already receives as much as one consumer processes: any backlog there would never drain.',
    );
    const stuck = planCapacity({
      ...{ partitions: [{ partition: 4, arrivalRatePerSec: 300, backlog: 1 }] },
      consumers: 1,
      perConsumerRatePerSec: 300,
      targetCatchUpSec: 60,
    });
    expect(stuck.catchUpSec).toBeNull();
    expect(stuck.hotPartitions).toEqual([4]);
  });

  it('lists several hot partitions in order', () => {
    const partitions = [
      { partition: 5, arrivalRatePerSec: 350, backlog: 1 },
      { partition: 2, arrivalRatePerSec: 310, backlog: 1 },
      { partition: 0, arrivalRatePerSec: 1, backlog: 1 },
    ];
    const plan = planCapacity({ partitions, consumers: 3, perConsumerRatePerSec: 300, targetCatchUpSec: 60 });
    expect(plan.hotPartitions).toEqual([2, 5]);
    expect(plan.summary).toMatch(
      /^No consumer count catches up: partitions 2 and 5 receive 310\/s, 350\/s and one consumer processes 300\/s;/,
    );
  });

  it('says when the rate is only a lower bound', () => {
    const plan = planCapacity({ ...seed, perConsumerRateIsLowerBound: true });
    expect(plan.rateIsLowerBound).toBe(true);
    expect(plan.summary).toMatch(
      /The per-consumer rate \(300\/s\) was measured without a backlog, so it is only a lower bound: fewer consumers may do\.$/,
    );
    expect(planCapacity(seed).rateIsLowerBound).toBe(false);
  });

  it('reports the current catch-up time when scaling up', () => {
    const plan = planCapacity({
      partitions: uniform(4, 50, 6_000),
      consumers: 2,
      perConsumerRatePerSec: 200,
      targetCatchUpSec: 60,
    });
    expect(plan.recommendedConsumers).toBe(4);
    expect(plan.summary).toBe('Scale consumers to 4 to catch up in 40 s. At the current 2 it takes 2 min.');
  });

  it('handles no partitions and no consumers', () => {
    const none = planCapacity({ partitions: [], consumers: 2, perConsumerRatePerSec: 10, targetCatchUpSec: 60 });
    expect(none).toEqual({
      recommendedConsumers: 0,
      catchUpSec: 0,
      catchUpSecByConsumers: [],
      idleConsumers: 2,
      limitedByPartitions: false,
      noGainBeyond: null,
      hotPartitions: [],
      rateIsLowerBound: false,
      retention: null,
      targetConsumers: 0,
      summary: 'No partitions: nothing to plan.',
    });
    const zero = planCapacity({ ...seed, consumers: 0 });
    expect(zero.summary).toBe('Scale consumers to 6 to catch up in 5 min.');
  });

  it('does not depend on the order partitions are given in', () => {
    const partitions = [
      { partition: 3, arrivalRatePerSec: 20, backlog: 900 },
      { partition: 0, arrivalRatePerSec: 80, backlog: 100 },
      { partition: 2, arrivalRatePerSec: 20, backlog: 50 },
      { partition: 1, arrivalRatePerSec: 60, backlog: 3_000 },
    ];
    const input = { consumers: 1, perConsumerRatePerSec: 120, targetCatchUpSec: 100 };
    expect(planCapacity({ ...input, partitions: [...partitions].reverse() })).toEqual(
      planCapacity({ ...input, partitions }),
    );
  });

  it('rejects invalid input', () => {
    const bad: CapacityInput[] = [
      { ...seed, consumers: -1 },
      { ...seed, consumers: 1.5 },
      { ...seed, perConsumerRatePerSec: 0 },
      { ...seed, perConsumerRatePerSec: Number.NaN },
      { ...seed, targetCatchUpSec: -1 },
      { ...seed, partitions: [...uniform(2, 1, 1), { partition: 1, arrivalRatePerSec: 1, backlog: 1 }] },
      { ...seed, partitions: [{ partition: -1, arrivalRatePerSec: 1, backlog: 1 }] },
      { ...seed, partitions: [{ partition: 0, arrivalRatePerSec: -1, backlog: 1 }] },
      { ...seed, partitions: [{ partition: 0, arrivalRatePerSec: 1, backlog: Number.POSITIVE_INFINITY }] },
    ];
    for (const input of bad) expect(() => planCapacity(input), JSON.stringify(input)).toThrow(RangeError);
  });
});

describe('assignPartitions against a reference linear scan', () => {
  /** The rule as written: least arrival, then fewer partitions, then lower index, by scanning every consumer. */
  function reference(partitions: readonly PartitionLoad[], consumers: number) {
    const loads = Array.from({ length: consumers }, () => ({
      partitions: [] as number[],
      arrivalRatePerSec: 0,
      backlog: 0,
    }));
    const ordered = [...partitions].sort(
      (x, y) => y.arrivalRatePerSec - x.arrivalRatePerSec || x.partition - y.partition,
    );
    for (const p of ordered) {
      let best = 0;
      loads.forEach((load, i) => {
        const b = loads[best] as (typeof loads)[number];
        if (
          load.arrivalRatePerSec < b.arrivalRatePerSec ||
          (load.arrivalRatePerSec === b.arrivalRatePerSec && load.partitions.length < b.partitions.length)
        )
          best = i;
      });
      const target = loads[best] as (typeof loads)[number];
      target.partitions.push(p.partition);
      target.arrivalRatePerSec += p.arrivalRatePerSec;
      target.backlog += p.backlog;
    }
    return loads;
  }
  it('matches on random inputs with many ties', () => {
    const random = seededRandom(42);
    for (let round = 0; round < 300; round += 1) {
      const count = 1 + Math.floor(random() * 24);
      const partitions = Array.from({ length: count }, (_, partition) => ({
        partition,
        arrivalRatePerSec: Math.floor(random() * 4) * 50, // few distinct values: ties everywhere
        backlog: Math.floor(random() * 1_000),
      }));
      for (let consumers = 1; consumers <= count + 1; consumers += 1) {
        expect(assignPartitions(partitions, consumers)).toEqual(reference(partitions, consumers));
      }
    }
  });

  it('plans 1,000 partitions: one catch-up time per consumer count, not limited by partitions', () => {
    const partitions = Array.from({ length: 1_000 }, (_, partition) => ({
      partition,
      arrivalRatePerSec: (partition % 7) * 10,
      backlog: 5_000,
    }));
    const plan = planCapacity({ partitions, consumers: 10, perConsumerRatePerSec: 500, targetCatchUpSec: 600 });
    expect(plan.catchUpSecByConsumers).toHaveLength(1_000);
    expect(plan.limitedByPartitions).toBe(false);
  });
});

describe('the knee: the smallest count no larger count beats by 10% or more', () => {
  const curve = (...secs: Array<number | null>) => secs.map((catchUpSec, i) => ({ consumers: i + 1, catchUpSec }));

  it('compares with every larger count, so small steps that add up to a real gain do not stop it early', () => {
    // Each step shortens by under 10%, but 4 consumers are 22% faster than 1 and 15% faster than 2.
    expect(findNoGainBeyond(curve(100, 92, 85, 78))).toBe(3);
    expect(findNoGainBeyond(curve(120, 120, 180, 120))).toBe(1); // a measured limit: not monotone
    expect(findNoGainBeyond(curve(null, 100, 95, 91))).toBe(2); // 1 never catches up: not the knee
    expect(findNoGainBeyond(curve(100, 90, 80, 70))).toBeNull(); // every consumer helps
    expect(findNoGainBeyond(curve(null, 0, 0))).toBeNull(); // keeping up: nothing to shorten
    expect(findNoGainBeyond(curve(null, null))).toBeNull();
  });

  it('recommends the knee, not one consumer per partition, when one partition holds the backlog (recorded)', () => {
    // The backtest's hot-partition group when its plan was read: 5,700 records left on partition 0, 300 on
    // partition 1, one consumer measured at 80.6/s; the target (half the fastest catch-up) is out of reach.
    const partitions = [
      { partition: 0, arrivalRatePerSec: 0, backlog: 5_700 },
      { partition: 1, arrivalRatePerSec: 0, backlog: 300 },
      { partition: 2, arrivalRatePerSec: 0, backlog: 0 },
      { partition: 3, arrivalRatePerSec: 0, backlog: 0 },
    ];
    const plan = planCapacity({ partitions, consumers: 1, perConsumerRatePerSec: 80.6, targetCatchUpSec: 35 });
    expect(plan.catchUpSecByConsumers.map((p) => Math.round(p.catchUpSec!))).toEqual([74, 71, 71, 71]);
    expect(plan.limitedByPartitions).toBe(true);
    expect(plan.noGainBeyond).toBe(1);
    expect(plan.recommendedConsumers).toBe(1);
    expect(plan.catchUpSec).toBeCloseTo(6_000 / 80.6);
    expect(plan.summary).toBe(
      'No consumer count catches up within the 35 s target: keep 1 consumer, it catches up in 1 min 14 s. ' +
        'More than 1 consumer would shorten the catch-up by less than 10%: partition 0 holds 95% of the backlog ' +
        'and a partition is consumed by one consumer only. Spread its key or make processing faster.',
    );
    // Seen from 3 running consumers: it says 1 would do, and from none it says to scale to 1.
    expect(
      planCapacity({ partitions, consumers: 3, perConsumerRatePerSec: 80.6, targetCatchUpSec: 35 }).summary,
    ).toMatch(
      /^No consumer count catches up within the 35 s target: 1 consumer would catch up in 1 min 14 s; 3 are running\. /,
    );
    expect(
      planCapacity({ partitions, consumers: 0, perConsumerRatePerSec: 80.6, targetCatchUpSec: 35 }).summary,
    ).toMatch(
      /^No consumer count catches up within the 35 s target: scale consumers to 1 to catch up in 1 min 14 s\. /,
    );
  });

  it('still recommends one per partition when every consumer up to it helps', () => {
    const plan = planCapacity({
      partitions: uniform(4, 0, 1_000),
      consumers: 1,
      perConsumerRatePerSec: 100,
      targetCatchUpSec: 5,
    });
    expect(plan.noGainBeyond).toBeNull();
    expect(plan.recommendedConsumers).toBe(4);
    expect(plan.summary).toMatch(/^Even 4 consumers \(one per partition\) need 10 s to catch up/);
  });
});

describe('the rebalance pause in T', () => {
  const pause = { sec: 4, statement: 'T counts a 4 s rebalance pause for a change of the consumer count.' };

  it('adds the pause and its arrivals to every count but the current one, and says so', () => {
    const plan = planCapacity({ ...seed, consumers: 6, rebalancePause: pause });
    // The current 6: no rebalance, 30,000 / 100 = 300 s.
    expect(plan.catchUpSecByConsumers[5]).toEqual({ consumers: 6, catchUpSec: 300 });
    const scaleOut = planCapacity({ ...seed, targetCatchUpSec: 320, rebalancePause: pause });
    // From 3 to 6: 4 s without processing while 200/s arrive per partition: (30,000 + 800) / 100 + 4 = 312 s.
    expect(scaleOut.catchUpSec).toBeCloseTo(312, 9);
    expect(scaleOut.summary).toBe(
      'Scale consumers to 6 to catch up in 5 min 12 s. At the current 3 it never catches up. ' + pause.statement,
    );
    // Over the old target now: the pause can decide whether a count is within it.
    expect(planCapacity({ ...seed, rebalancePause: pause }).limitedByPartitions).toBe(true);
  });

  it('is left out where nothing waits (a blip, not a catch-up) and rejects a negative pause', () => {
    const idle = planCapacity({ ...seed, partitions: uniform(6, 0, 0), rebalancePause: pause });
    expect(idle.catchUpSecByConsumers.every((p) => p.catchUpSec === 0)).toBe(true);
    expect(idle.summary).not.toContain('rebalance pause');
    expect(groupCatchUpSec(uniform(2, 0, 100), 2, 10, 3)).toBe(13);
    expect(() => planCapacity({ ...seed, rebalancePause: { sec: -1, statement: '' } })).toThrow(
      /rebalancePause.sec must be a finite number >= 0, got -1/,
    );
  });
});
