import { describe, expect, it } from 'vitest';
import { appendLogEndPoint, estimateTimeLag, type LogEndPoint } from './time-lag';

const p = (offset: number, atMs: number): LogEndPoint => ({ offset, atMs });

describe('estimateTimeLag', () => {
  // Log end grew 100 -> 200 -> 400 over 0..20 s.
  const table = [p(100, 0), p(200, 10_000), p(400, 20_000)];

  it('is unknown (null, not NaN or 0) when there are no points', () => {
    expect(estimateTimeLag({ points: [], committedOffset: 0, nowMs: 5_000 })).toEqual({ ms: null, kind: 'unknown' });
  });

  it('is caught up with 0 when the committed offset is at the newest log end', () => {
    expect(estimateTimeLag({ points: table, committedOffset: 400, nowMs: 60_000 })).toEqual({
      ms: 0,
      kind: 'caught-up',
    });
  });

  it('is caught up with 0 when the committed offset is past the newest point (the log grew since)', () => {
    expect(estimateTimeLag({ points: table, committedOffset: 450, nowMs: 60_000 })).toEqual({
      ms: 0,
      kind: 'caught-up',
    });
  });

  it('reports an idle partition as 0 ms, however long it has been idle', () => {
    const idle = [p(500, 0), p(500, 3_600_000)];
    expect(estimateTimeLag({ points: idle, committedOffset: 500, nowMs: 7_200_000 })).toEqual({
      ms: 0,
      kind: 'caught-up',
    });
  });

  it('interpolates linearly between the bracketing points', () => {
    // 150 is halfway between 100 (t=0) and 200 (t=10 s): produced at 5 s, waiting 25 s at now=30 s.
    expect(estimateTimeLag({ points: table, committedOffset: 150, nowMs: 30_000 })).toEqual({
      ms: 25_000,
      kind: 'interpolated',
    });
    // 300 is halfway between 200 (10 s) and 400 (20 s): 15 s.
    expect(estimateTimeLag({ points: table, committedOffset: 300, nowMs: 30_000 })).toEqual({
      ms: 15_000,
      kind: 'interpolated',
    });
  });

  it('places a committed offset equal to a point at that point, using the pair that leaves it', () => {
    expect(estimateTimeLag({ points: table, committedOffset: 200, nowMs: 30_000 })).toEqual({
      ms: 20_000,
      kind: 'interpolated',
    });
    expect(estimateTimeLag({ points: table, committedOffset: 100, nowMs: 30_000 })).toEqual({
      ms: 30_000,
      kind: 'interpolated',
    });
  });

  it('is not distorted by a flat run: it uses the newest pair, the one leaving the run', () => {
    // Producer idle from 10 s to 100 s at offset 200, then 200 more records by 110 s.
    const flat = [p(100, 0), p(200, 10_000), p(200, 100_000), p(400, 110_000)];
    // 200 was appended after 100 s (the log end was still 200 then); a pair inside the run would say 10 s.
    expect(estimateTimeLag({ points: flat, committedOffset: 200, nowMs: 120_000 })).toEqual({
      ms: 20_000,
      kind: 'interpolated',
    });
    expect(estimateTimeLag({ points: flat, committedOffset: 300, nowMs: 120_000 })).toEqual({
      ms: 15_000,
      kind: 'interpolated',
    });
    // Below the run the older pair is the only one bracketing.
    expect(estimateTimeLag({ points: flat, committedOffset: 150, nowMs: 120_000 })).toEqual({
      ms: 115_000,
      kind: 'interpolated',
    });
  });

  it('keeps growing while the producer is idle and the consumer is stuck: the record really is waiting', () => {
    const points = [p(0, 0), p(100, 10_000), p(100, 500_000)];
    const at = (nowMs: number) => estimateTimeLag({ points, committedOffset: 50, nowMs });
    expect(at(500_000)).toEqual({ ms: 495_000, kind: 'interpolated' });
    expect(at(600_000)).toEqual({ ms: 595_000, kind: 'interpolated' });
  });

  it('gives a lower bound (oldest point age) below the window instead of extrapolating', () => {
    // A consumer replaying from offset 0: extrapolating the 10/s slope would claim ~10,000 s.
    expect(estimateTimeLag({ points: table, committedOffset: 0, nowMs: 30_000 })).toEqual({
      ms: 30_000,
      kind: 'lower-bound',
    });
    expect(estimateTimeLag({ points: table, committedOffset: 99, nowMs: 30_000 })).toEqual({
      ms: 30_000,
      kind: 'lower-bound',
    });
  });

  it('with a single point: caught up at or past it, lower bound below it, never interpolated', () => {
    const one = [p(100, 1_000)];
    expect(estimateTimeLag({ points: one, committedOffset: 100, nowMs: 9_000 })).toEqual({ ms: 0, kind: 'caught-up' });
    expect(estimateTimeLag({ points: one, committedOffset: 120, nowMs: 9_000 })).toEqual({ ms: 0, kind: 'caught-up' });
    expect(estimateTimeLag({ points: one, committedOffset: 40, nowMs: 9_000 })).toEqual({
      ms: 8_000,
      kind: 'lower-bound',
    });
  });

  it('clamps at 0 when now is before the estimated time (clock skew), never negative', () => {
    expect(estimateTimeLag({ points: table, committedOffset: 300, nowMs: 10_000 })).toEqual({
      ms: 0,
      kind: 'interpolated',
    });
    // A lower bound that would be 0 (or less) is no evidence: unknown, never "at least 0 s".
    expect(estimateTimeLag({ points: table, committedOffset: 0, nowMs: -5 })).toEqual({ ms: null, kind: 'unknown' });
  });

  it('is unknown, not a lower bound of 0, on the first observation of a lagging partition', () => {
    expect(estimateTimeLag({ points: [p(900, 10_000)], committedOffset: 100, nowMs: 10_000 })).toEqual({
      ms: null,
      kind: 'unknown',
    });
    expect(estimateTimeLag({ points: [p(900, 10_000)], committedOffset: 100, nowMs: 15_000 })).toEqual({
      ms: 5_000,
      kind: 'lower-bound',
    });
  });

  it('accepts two points at the same time (no division by zero)', () => {
    const points = [p(100, 5_000), p(200, 5_000)];
    expect(estimateTimeLag({ points, committedOffset: 150, nowMs: 6_000 })).toEqual({
      ms: 1_000,
      kind: 'interpolated',
    });
  });

  it('works with offsets beyond 2^32', () => {
    const base = 2 ** 40;
    const points = [p(base, 0), p(base + 1_000, 1_000)];
    expect(estimateTimeLag({ points, committedOffset: base + 250, nowMs: 2_000 })).toEqual({
      ms: 1_750,
      kind: 'interpolated',
    });
  });

  it('rejects tables that go backwards and invalid numbers', () => {
    const bad: Array<[LogEndPoint[], number, number]> = [
      [[p(200, 0), p(100, 10)], 150, 20], // offset decreased
      [[p(100, 10), p(200, 0)], 150, 20], // time decreased
      [[p(Number.NaN, 0)], 1, 1],
      [[p(1, Number.POSITIVE_INFINITY)], 1, 1],
      [[p(100, 0)], -1, 1], // "no commit" sentinel must not be mistaken for an offset
      [[p(100, 0)], Number.NaN, 1],
      [[p(100, 0)], 1, Number.NaN],
    ];
    for (const [points, committedOffset, nowMs] of bad) {
      expect(() => estimateTimeLag({ points, committedOffset, nowMs }), JSON.stringify(points)).toThrow(RangeError);
    }
  });
});

describe('appendLogEndPoint', () => {
  it('appends to an empty table and does not mutate its input', () => {
    const empty: LogEndPoint[] = [];
    expect(appendLogEndPoint(empty, p(10, 1), 5)).toEqual([p(10, 1)]);
    expect(empty).toEqual([]);
    const one = [p(10, 1)];
    const two = appendLogEndPoint(one, p(20, 2), 5);
    expect(two).toEqual([p(10, 1), p(20, 2)]);
    expect(one).toEqual([p(10, 1)]);
  });

  it('keeps only the first and last point of a flat run', () => {
    let points: LogEndPoint[] = [];
    for (const [offset, atMs] of [
      [10, 0],
      [20, 5],
      [20, 10],
      [20, 15],
      [20, 20],
      [30, 25],
    ] as const) {
      points = appendLogEndPoint(points, p(offset, atMs), 10);
    }
    expect(points).toEqual([p(10, 0), p(20, 5), p(20, 20), p(30, 25)]);
  });

  it('keeps an idle partition at two points however many samples arrive', () => {
    let points: LogEndPoint[] = [];
    for (let i = 0; i < 1_000; i += 1) points = appendLogEndPoint(points, p(77, i * 5_000), 60);
    expect(points).toEqual([p(77, 0), p(77, 999 * 5_000)]);
    expect(estimateTimeLag({ points, committedOffset: 77, nowMs: 10_000_000 })).toEqual({ ms: 0, kind: 'caught-up' });
  });

  it('caps the table by dropping the oldest points', () => {
    let points: LogEndPoint[] = [];
    for (let i = 0; i < 8; i += 1) points = appendLogEndPoint(points, p(i * 10, i * 1_000), 3);
    expect(points).toEqual([p(50, 5_000), p(60, 6_000), p(70, 7_000)]);
  });

  it('ignores a sample that is not newer than the newest point (duplicate or out of order)', () => {
    const points = [p(10, 1_000), p(20, 2_000)];
    expect(appendLogEndPoint(points, p(30, 2_000), 5)).toEqual(points);
    expect(appendLogEndPoint(points, p(30, 1_500), 5)).toEqual(points);
  });

  it('restarts the table when the log end goes backwards (topic recreated or truncated)', () => {
    const points = [p(1_000, 1_000), p(2_000, 2_000)];
    expect(appendLogEndPoint(points, p(5, 3_000), 5)).toEqual([p(5, 3_000)]);
  });

  it('always produces a table estimateTimeLag accepts', () => {
    let points: LogEndPoint[] = [];
    const offsets = [5, 5, 9, 3, 3, 3, 8, 8, 20, 20, 20, 19, 40];
    offsets.forEach((offset, i) => {
      points = appendLogEndPoint(points, p(offset, i * 10), 4);
      expect(points.length).toBeLessThanOrEqual(4);
      expect(() => estimateTimeLag({ points, committedOffset: 0, nowMs: 1_000 })).not.toThrow();
    });
    expect(points).toEqual([p(19, 110), p(40, 120)]);
  });

  it('rejects invalid points and caps below 2', () => {
    expect(() => appendLogEndPoint([], p(1, 1), 1)).toThrow(RangeError);
    expect(() => appendLogEndPoint([], p(1, 1), 2.5)).toThrow(RangeError);
    expect(() => appendLogEndPoint([], p(-1, 1), 5)).toThrow(RangeError);
    expect(() => appendLogEndPoint([], p(Number.NaN, 1), 5)).toThrow(RangeError);
    expect(() => appendLogEndPoint([], p(1, Number.NaN), 5)).toThrow(RangeError);
  });
});
