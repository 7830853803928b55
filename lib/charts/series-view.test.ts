import { describe, expect, it } from 'vitest';
import { explainEmptyRange, rankPartitions, samplerGaps, storedFromReason } from './series-view';

const p = (partition: number, timeLagMs: Array<number | null>, lag: Array<number | null> = timeLagMs) => ({
  topic: 't',
  partition,
  lag,
  timeLagMs,
});

describe('rankPartitions', () => {
  it('puts the worst time lag now first, not the worst peak', () => {
    const ranked = rankPartitions([p(0, [900, 10]), p(1, [5, 50]), p(2, [null, null], [null, 7])]);
    expect(ranked.map((x) => x.partition)).toEqual([1, 0, 2]);
  });

  it('keeps equal partitions in partition order', () => {
    expect(rankPartitions([p(3, [1]), p(1, [1]), p(2, [1])]).map((x) => x.partition)).toEqual([1, 2, 3]);
  });
});

describe('samplerGaps', () => {
  it('reports runs of two or more empty buckets between samples, not the edges of the range', () => {
    const times = [0, 1, 2, 3, 4, 5, 6, 7];
    const has = [false, true, false, true, false, false, false, true];
    expect(samplerGaps(times, has)).toEqual([{ fromMs: 4, toMs: 7 }]);
    expect(samplerGaps(times, has, 1)).toEqual([
      { fromMs: 2, toMs: 3 },
      { fromMs: 4, toMs: 7 },
    ]);
    expect(
      samplerGaps(
        times,
        times.map(() => false),
      ),
    ).toEqual([]);
  });
});

describe('explainEmptyRange', () => {
  const to = Date.parse('2026-12-01T12:00:00Z');
  it('says no samples yet when nothing is stored', () => {
    expect(explainEmptyRange({ toMs: to, source: 'samples', firstSampledAtMs: null, lastSampledAtMs: null })).toEqual({
      kind: 'no-samples-yet',
    });
  });
  it('says the rollup is not written yet for a group sampled minutes ago on a long range', () => {
    expect(
      explainEmptyRange({ toMs: to, source: 'rollup', firstSampledAtMs: to - 120_000, lastSampledAtMs: to }),
    ).toEqual({ kind: 'rollup-not-written', firstSampledAtMs: to - 120_000 });
  });
  it('calls an old group with nothing in range a sampler gap, naming its newest sample', () => {
    expect(
      explainEmptyRange({
        toMs: to,
        source: 'samples',
        firstSampledAtMs: to - 86_400_000,
        lastSampledAtMs: to - 3_600_000,
      }),
    ).toEqual({ kind: 'sampler-gap', lastSampledAtMs: to - 3_600_000 });
  });
});

describe('storedFromReason', () => {
  const DAY = 86_400_000;
  const now = Date.parse('2026-12-02T04:00:00Z');
  it('a group whose oldest sample is younger than the retention was first sampled then', () => {
    expect(storedFromReason(now - 2 * DAY, now, 7)).toBe('first-sampled');
    expect(storedFromReason(now - 7 * DAY + 1, now, 7)).toBe('first-sampled');
  });
  it('an oldest sample as old as the retention or older (whole days are dropped) is past retention', () => {
    expect(storedFromReason(now - 7 * DAY, now, 7)).toBe('past-retention');
    expect(storedFromReason(now - 7.6 * DAY, now, 7)).toBe('past-retention');
    expect(storedFromReason(now - 2 * DAY, now, 1)).toBe('past-retention');
  });
});
