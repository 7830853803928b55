import { describe, expect, it } from 'vitest';
import {
  commitEntries,
  evaluatePartitionHistory,
  minStopSilenceMs,
  ownerStillCommits,
  ratesBetweenCommits,
  sumPartitionSamples,
  compareTimeLagDesc,
  lagTrend,
  partitionStatus,
  ratesFromSamples,
  resolveTimeLag,
  timeLagFromSamples,
  windowFromObservations,
  type SamplePoint,
} from './partition-analysis';

/** A partition sampled every `everyMs`: the log end grows `arrivalPerSample`, the commit `consumedPerSample`. */
function samples(
  count: number,
  opts: {
    everyMs?: number;
    startLogEnd?: number;
    arrivalPerSample?: number;
    startCommitted?: number | null;
    consumedPerSample?: number;
  } = {},
): SamplePoint[] {
  const every = opts.everyMs ?? 5_000;
  return Array.from({ length: count }, (_, i) => ({
    atMs: i * every,
    logEndOffset: (opts.startLogEnd ?? 100) + i * (opts.arrivalPerSample ?? 10),
    committedOffset:
      opts.startCommitted === null ? null : (opts.startCommitted ?? 100) + i * (opts.consumedPerSample ?? 10),
  }));
}

const noStored = { timeLagMs: null, timeLagKind: null, exactTimeLagMs: null };

describe('timeLagFromSamples', () => {
  const history = samples(5); // log end 100, 110, ..., 140 at 0, 5, ..., 20 s

  it('is unknown without a commit', () => {
    expect(timeLagFromSamples(history, null, 20_000)).toEqual({ ms: null, kind: 'unknown', basis: 'none' });
  });

  it('is caught up at or past the newest log end, 0 and never NaN', () => {
    expect(timeLagFromSamples(history, 140, 20_000)).toEqual({ ms: 0, kind: 'caught-up', basis: 'lag-samples' });
  });

  it('interpolates between the samples that bracket the committed offset', () => {
    // Offset 125 was the log end half-way between 10 s (120) and 15 s (130): produced at 12.5 s.
    expect(timeLagFromSamples(history, 125, 20_000)).toEqual({ ms: 7_500, kind: 'interpolated', basis: 'lag-samples' });
  });

  it('is a lower bound when the record is older than every sample', () => {
    expect(timeLagFromSamples(history, 50, 20_000)).toEqual({ ms: 20_000, kind: 'lower-bound', basis: 'lag-samples' });
  });

  it('ignores samples after nowMs', () => {
    expect(timeLagFromSamples(history, 125, 10_000)).toMatchObject({ kind: 'caught-up' });
  });

  it('stays correct across a long idle run (flat log end)', () => {
    const idle = [0, 5_000, 10_000, 600_000].map((atMs, i) => ({
      atMs,
      logEndOffset: i === 0 ? 90 : 100,
      committedOffset: 95,
    }));
    // 95 was reached half-way between 0 s (90) and 5 s (100), not somewhere in the ten idle minutes.
    expect(timeLagFromSamples(idle, 95, 600_000)).toEqual({ ms: 597_500, kind: 'interpolated', basis: 'lag-samples' });
  });
});

describe('resolveTimeLag', () => {
  const history = samples(5);

  it('prefers the exact age read from the record', () => {
    expect(
      resolveTimeLag({ timeLagMs: 5_000, timeLagKind: 'interpolated', exactTimeLagMs: 4_200 }, history, 125, 20_000),
    ).toEqual({
      ms: 4_200,
      kind: 'exact',
      basis: 'record-timestamp',
    });
  });

  it("then the sampler's own estimate, with its kind", () => {
    expect(
      resolveTimeLag({ timeLagMs: 60_000, timeLagKind: 'lower-bound', exactTimeLagMs: null }, history, 125, 20_000),
    ).toEqual({
      ms: 60_000,
      kind: 'lower-bound',
      basis: 'sampler',
    });
    expect(
      resolveTimeLag({ timeLagMs: null, timeLagKind: 'unknown', exactTimeLagMs: null }, history, 125, 20_000),
    ).toEqual({
      ms: null,
      kind: 'unknown',
      basis: 'sampler',
    });
  });

  it('reads a stored lower bound of 0 as unknown', () => {
    expect(
      resolveTimeLag({ timeLagMs: 0, timeLagKind: 'lower-bound', exactTimeLagMs: null }, history, 125, 20_000),
    ).toEqual({ ms: null, kind: 'unknown', basis: 'sampler' });
  });

  it('falls back to the samples when the sampler stored nothing (or a kind it does not know)', () => {
    expect(resolveTimeLag(noStored, history, 125, 20_000)).toMatchObject({ ms: 7_500, basis: 'lag-samples' });
    expect(
      resolveTimeLag({ timeLagMs: 1, timeLagKind: 'bogus', exactTimeLagMs: null }, history, 125, 20_000),
    ).toMatchObject({ basis: 'lag-samples' });
  });
});

describe('commitEntries', () => {
  it('keeps the first sample of every committed offset, and at most the newest N', () => {
    const history: SamplePoint[] = [
      { atMs: 0, committedOffset: 10, logEndOffset: 20 },
      { atMs: 1, committedOffset: 10, logEndOffset: 21 },
      { atMs: 2, committedOffset: 12, logEndOffset: 22 },
      { atMs: 3, committedOffset: null, logEndOffset: 23 },
      { atMs: 4, committedOffset: 12, logEndOffset: 24 },
      { atMs: 5, committedOffset: 11, logEndOffset: 25 },
    ];
    expect(commitEntries(history, 10)).toEqual([
      { atMs: 0, committedOffset: 10, logEndOffset: 20 },
      { atMs: 2, committedOffset: 12, logEndOffset: 22 },
      { atMs: 4, committedOffset: 12, logEndOffset: 24 }, // after a gap with no commit, the offset counts again
      { atMs: 5, committedOffset: 11, logEndOffset: 25 },
    ]);
    expect(commitEntries(history, 2).map((e) => e.atMs)).toEqual([4, 5]);
  });
});

describe('partitionStatus', () => {
  it('is OK while a lagging consumer keeps committing and the lag shrinks', () => {
    const history = samples(20, { startLogEnd: 1_000, arrivalPerSample: 5, startCommitted: 0, consumedPerSample: 20 });
    expect(partitionStatus(history, history.at(-1)!.atMs)).toBe('OK');
  });

  it('is WARN when the lag grew at every commit', () => {
    const history = samples(20, { startLogEnd: 1_000, arrivalPerSample: 20, startCommitted: 0, consumedPerSample: 5 });
    expect(partitionStatus(history, history.at(-1)!.atMs)).toBe('WARN');
  });

  it('is STOP when commits stopped while lagging for longer than the window they span', () => {
    const moving = samples(12, { startLogEnd: 1_000, arrivalPerSample: 20, startCommitted: 0, consumedPerSample: 5 }); // 0..55 s
    const last = moving.at(-1)!;
    const stopped = Array.from({ length: 20 }, (_, i) => ({
      atMs: last.atMs + (i + 1) * 5_000,
      committedOffset: last.committedOffset,
      logEndOffset: last.logEndOffset + (i + 1) * 20,
    }));
    const history = [...moving, ...stopped];
    expect(partitionStatus(history, history.at(-1)!.atMs)).toBe('STOP');
  });

  it('is not STOP for a consumer that commits in bursts, partition after partition, while its owner commits', () => {
    // 12 commits in a minute, then a two-minute pause while the consumer works on its other partitions, then more.
    const history: SamplePoint[] = [];
    let committed = 0;
    for (let i = 0; i < 60; i++) {
      const atMs = i * 5_000;
      const working = i < 12 || (i >= 36 && i < 48);
      if (working) committed += 10;
      history.push({ atMs, committedOffset: committed, logEndOffset: 1_000 + i * 20 });
    }
    // The last ten commits span 45 s and the pause after them is 60 s: Burrow alone says STOP.
    expect(partitionStatus(history, history.at(-1)!.atMs, { ownerAlive: false })).toBe('STOP');
    expect(partitionStatus(history, history.at(-1)!.atMs, { ownerAlive: true })).not.toBe('STOP');
  });

  it('is STOP when a lagging partition saw no commit in its whole history, once the ring has moved past it', () => {
    const history = samples(14, {
      startLogEnd: 1_000,
      arrivalPerSample: 10,
      startCommitted: 500,
      consumedPerSample: 0,
    });
    // One window entry (the first sample) shows no cadence: the minimum silence is ten intervals, 50 s.
    expect(partitionStatus(history.slice(0, 11), history[10]!.atMs)).toBe('OK');
    expect(evaluatePartitionHistory(history.slice(0, 12), history[11]!.atMs)).toMatchObject({
      status: 'STOP',
      reason: 'no commit for 55 s; lag 610 and growing 2/s',
      commits: 1,
      complete: 0.1,
    });
    const idle = samples(72, { startLogEnd: 700, arrivalPerSample: 0, startCommitted: 700, consumedPerSample: 0 });
    expect(partitionStatus(idle, idle.at(-1)!.atMs)).toBe('OK'); // idle and caught up: nothing to commit
  });

  it('needs two sampler intervals of silence once the window has two commits, ten with one', () => {
    expect(minStopSilenceMs(2, 5_000)).toBe(10_000);
    expect(minStopSilenceMs(1, 5_000)).toBe(50_000);
    expect(minStopSilenceMs(0, 5_000)).toBe(50_000);
    expect(minStopSilenceMs(1, 0)).toBe(Number.POSITIVE_INFINITY);
  });

  it('judges an owner by all its commits: one request for several partitions counts once', () => {
    expect(ownerStillCommits([0, 0, 0, 5_000, 5_000], 9_000, 2_000)).toBe(true);
    expect(ownerStillCommits([0, 0, 0, 5_000, 5_000], 10_001, 2_000)).toBe(false);
    expect(ownerStillCommits([], 0, 2_000)).toBe(false);
  });

  it('uses every commit read from the offsets topic when given, the samples otherwise', () => {
    const history = samples(12, {
      startLogEnd: 2_000,
      arrivalPerSample: 20,
      startCommitted: 1_000,
      consumedPerSample: 0,
    });
    const commits = history.map((s) => ({ atMs: s.atMs, committedOffset: 1_000, logEndOffset: s.logEndOffset }));
    expect(partitionStatus(history, history.at(-1)!.atMs, { commits })).toBe('STALL');
    expect(partitionStatus(history, history.at(-1)!.atMs)).toBe('STOP');
  });

  it('is REWIND when the committed offset moved backwards while lagging', () => {
    const history = samples(12, { startLogEnd: 1_000, arrivalPerSample: 20, startCommitted: 0, consumedPerSample: 5 });
    history.push({ atMs: history.at(-1)!.atMs + 5_000, committedOffset: 3, logEndOffset: 2_000 });
    expect(partitionStatus(history, history.at(-1)!.atMs)).toBe('REWIND');
  });
});

describe('ratesFromSamples', () => {
  it('measures arrival and consumption per second over the window', () => {
    const rates = ratesFromSamples(
      samples(13, { startLogEnd: 1_000, arrivalPerSample: 50, startCommitted: 0, consumedPerSample: 25 }),
      60_000,
    );
    expect(rates.arrivalRatePerSec).toBe(10);
    expect(rates.consumptionRatePerSec).toBe(5);
    expect(rates.hadBacklogThroughout).toBe(true);
  });

  it('measures only the arrival when the group never committed', () => {
    const rates = ratesFromSamples(samples(13, { arrivalPerSample: 50, startCommitted: null }), 60_000);
    expect(rates.arrivalRatePerSec).toBe(10);
    expect(rates.consumptionRatePerSec).toBeNull();
    expect(rates.hadBacklogThroughout).toBe(false);
  });

  it('measures consumption from when the group started committing', () => {
    const history = samples(13, { startLogEnd: 1_000, arrivalPerSample: 50, startCommitted: 0, consumedPerSample: 25 });
    for (const s of history.slice(0, 5)) s.committedOffset = null;
    const rates = ratesFromSamples(history, 60_000);
    expect(rates.consumptionRatePerSec).toBe(5);
    expect(rates.sampleCount).toBe(8);
  });

  it('is unknown with a single sample', () => {
    expect(ratesFromSamples(samples(1), 60_000).arrivalRatePerSec).toBeNull();
  });
});

describe('ratesBetweenCommits', () => {
  // Processes 10 records/s all along but commits a whole batch every 60 s (600 records), as kafkajs does.
  const bursty: SamplePoint[] = Array.from({ length: 61 }, (_, i) => {
    const atMs = i * 5_000;
    const commits = [30_000, 90_000, 150_000, 210_000, 270_000].filter((t) => t <= atMs).length;
    return { atMs, logEndOffset: 10_000 + i * 100, committedOffset: commits * 600 };
  });

  it('measures processing from commit to commit, where the window edges would not', () => {
    expect(ratesFromSamples(bursty, 100_000).consumptionRatePerSec).toBe(12);
    const rates = ratesBetweenCommits(bursty, 100_000);
    expect(rates.consumptionRatePerSec).toBe(10);
    expect(rates.hadBacklogThroughout).toBe(true);
  });

  it('measures nothing with fewer than two commits in the window', () => {
    expect(ratesBetweenCommits(bursty, 50_000)).toMatchObject({ consumptionRatePerSec: null, arrivalRatePerSec: null });
  });
});

describe('sumPartitionSamples', () => {
  it('judges a consumer as a whole: draining its partitions in turn, it never idled', () => {
    // Two partitions, 100 waiting on each; every 5 s the consumer drains one of them completely (kafkajs
    // processes a partition's batch at a time) while new records keep arriving on both.
    const a: SamplePoint[] = [];
    const b: SamplePoint[] = [];
    let endA = 100;
    let endB = 100;
    let doneA = 0;
    let doneB = 0;
    for (let i = 0; i < 8; i++) {
      a.push({ atMs: i * 5_000, logEndOffset: endA, committedOffset: doneA });
      b.push({ atMs: i * 5_000, logEndOffset: endB, committedOffset: doneB });
      if (i % 2 === 0) doneA = endA;
      else doneB = endB;
      endA += 40;
      endB += 40;
    }
    expect(ratesFromSamples(a, 60_000).hadBacklogThroughout).toBe(false);
    const summed = sumPartitionSamples([a, b]);
    expect(summed).toHaveLength(8);
    expect(summed[1]).toEqual({ atMs: 5_000, logEndOffset: 280, committedOffset: 100 });
    expect(ratesFromSamples(summed, 60_000).hadBacklogThroughout).toBe(true);
  });

  it('leaves out rounds where a partition is missing and marks rounds without a commit', () => {
    const summed = sumPartitionSamples([
      [
        { atMs: 0, logEndOffset: 10, committedOffset: null },
        { atMs: 5, logEndOffset: 12, committedOffset: 3 },
      ],
      [{ atMs: 5, logEndOffset: 7, committedOffset: 1 }],
    ]);
    expect(summed).toEqual([{ atMs: 5, logEndOffset: 19, committedOffset: 4 }]);
  });
});

describe('lagTrend', () => {
  it('keeps the worst round per bucket and leaves empty buckets null', () => {
    const rounds = [
      { atMs: 0, totalLag: 5 },
      { atMs: 10, totalLag: 50 },
      { atMs: 15, totalLag: 7 },
      { atMs: 35, totalLag: null },
      { atMs: 39, totalLag: 3 },
    ];
    expect(lagTrend(rounds, 0, 40, 4)).toEqual([
      { atMs: 0, totalLag: 5 },
      { atMs: 10, totalLag: 50 },
      { atMs: 20, totalLag: null },
      { atMs: 30, totalLag: 3 },
    ]);
  });
});

describe('compareTimeLagDesc', () => {
  it('sorts the oldest waiting record first and unknown last', () => {
    const lags = [
      { ms: 5, kind: 'interpolated' as const, basis: 'sampler' as const },
      null,
      { ms: 50, kind: 'exact' as const, basis: 'record-timestamp' as const },
    ];
    expect(lags.sort(compareTimeLagDesc).map((l) => l?.ms ?? null)).toEqual([50, 5, null]);
  });
});

describe('windowFromObservations', () => {
  const history: SamplePoint[] = [
    { atMs: 0, committedOffset: 100, logEndOffset: 150 },
    { atMs: 5_000, committedOffset: 100, logEndOffset: 170 },
    { atMs: 10_000, committedOffset: 120, logEndOffset: 190 },
  ];

  it('gives each commit the log end of the newest sample at or before it, repeated commits kept', () => {
    const observed = [
      { atMs: 6_000, committedOffset: 100 },
      { atMs: 1_000, committedOffset: 100 },
      { atMs: 9_000, committedOffset: 120 },
    ];
    expect(windowFromObservations(observed, history, 10_000)).toEqual([
      { atMs: 1_000, committedOffset: 100, logEndOffset: 150 },
      { atMs: 6_000, committedOffset: 100, logEndOffset: 170 },
      { atMs: 9_000, committedOffset: 120, logEndOffset: 170 },
    ]);
  });

  it('is null when the observations do not explain the sampled committed offset, or there are none', () => {
    expect(windowFromObservations([{ atMs: 1_000, committedOffset: 100 }], history, 10_000)).toBeNull();
    expect(windowFromObservations([], history, 10_000)).toBeNull();
    expect(windowFromObservations([{ atMs: 1_000, committedOffset: 120 }], [], 10_000)).toBeNull();
    // A commit after the newest round is not part of it.
    expect(
      windowFromObservations(
        [
          { atMs: 9_000, committedOffset: 120 },
          { atMs: 11_000, committedOffset: 130 },
        ],
        history,
        10_000,
      ),
    ).toEqual([{ atMs: 9_000, committedOffset: 120, logEndOffset: 170 }]);
  });
});
