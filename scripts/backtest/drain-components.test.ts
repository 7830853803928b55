import { describe, expect, it } from 'vitest';
import { median } from '../bench/stats';
import { drainComponents, type HandledRecord } from './drain-components';

/** `count` records of one consumer on one partition, one every `everyMs` from `fromMs`, offsets from `offset`. */
function run(consumer: number, partition: number, offset: number, count: number, fromMs: number, everyMs = 10) {
  return Array.from({ length: count }, (_, i): HandledRecord => ({
    consumer,
    partition,
    offset: offset + i,
    atMs: fromMs + i * everyMs,
  }));
}

describe('drainComponents', () => {
  it('splits a scale-out into the advice age, the rebalance pause, the real drain and the rates', () => {
    // Consumer 0 works until 1,000 ms, the scale-out starts at 800 ms, nobody works from 1,000 to 3,000 ms
    // (the rebalance), then consumers 0 and 1 drain partitions 0 and 1 at 100/s each.
    const handled = [
      ...run(0, 0, 0, 21, 800), // offsets 0..20 until 1,000 ms
      ...run(0, 0, 21, 79, 3_000), // the rest of partition 0: last offset 99 at 3,780 ms
      ...run(1, 1, 0, 100, 3_050), // partition 1: last offset 99 at 4,040 ms
    ];
    const components = drainComponents({
      handled,
      sampledAtMs: 500,
      scaleOutAtMs: 800,
      consumersBefore: 1,
      lastOffsetByPartition: new Map([
        [0, 99],
        [1, 99],
      ]),
    });
    expect(components.adviceAgeSec).toBeCloseTo(0.3);
    expect(components.joinSec).toBeCloseTo(2.25);
    expect(components.longestPauseSec).toBeCloseTo(2);
    expect(components.drainSecByPartition).toEqual(
      new Map([
        [0, 3.28],
        [1, 3.54],
      ]),
    );
    expect(components.handlerDrainSec).toBeCloseTo(3.54);
    // Consumer 0: 100 records over 2.98 s (the pause inside its span); consumer 1: 99 intervals in 0.99 s.
    expect(components.medianConsumerRatePerSec).toBeCloseTo((99 / 2.98 + 100) / 2);
  });

  it('reports a partition that never drained, and no join without a scale-out', () => {
    const components = drainComponents({
      handled: run(0, 0, 0, 50, 0),
      sampledAtMs: 0,
      scaleOutAtMs: 0,
      consumersBefore: 1,
      lastOffsetByPartition: new Map([
        [0, 49],
        [1, 9],
      ]),
    });
    expect(components.joinSec).toBeNull();
    expect(components.drainSecByPartition.get(0)).toBeCloseTo(0.49);
    expect(components.drainSecByPartition.get(1)).toBeNull();
    expect(components.handlerDrainSec).toBeNull();
  });

  it('ends a redelivered partition at the last time its last offset was handled', () => {
    const handled = [...run(0, 0, 0, 10, 0), ...run(1, 0, 5, 5, 2_000)];
    const components = drainComponents({
      handled,
      sampledAtMs: 0,
      scaleOutAtMs: 100,
      consumersBefore: 1,
      lastOffsetByPartition: new Map([[0, 9]]),
    });
    expect(components.handlerDrainSec).toBeCloseTo(2.04);
    expect(components.longestPauseSec).toBeCloseTo(1.9); // from the scale-out at 100 ms to 2,000 ms
  });
});

describe('median', () => {
  it('takes the middle value, or the mean of the middle two', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });
});
