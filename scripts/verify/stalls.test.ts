import { describe, expect, it } from 'vitest';
import { longestStops } from './stalls';

const samples = (pairs: Array<[number, number]>) => pairs.map(([atMs, handled]) => ({ atMs, handled }));

describe('longestStops', () => {
  it('charges the longest stretch without progress to the fault whose window it lies in', () => {
    const progress = samples([
      [0, 0],
      [1_000, 10],
      [2_000, 20],
      [3_000, 20],
      [6_000, 20],
      [6_500, 30],
      [7_000, 40],
      [8_000, 50],
      [9_000, 60],
    ]);
    const stalls = longestStops(progress, [{ fault: 'kill -9 of node 1', atMs: 2_000 }], 0, 9_000, 100);
    expect(stalls).toEqual([{ fault: 'kill -9 of node 1', atSeconds: 2, longestStopSeconds: 4.5 }]);
  });

  it('splits the run into one window per fault', () => {
    const progress = samples([
      [0, 0],
      [1_000, 10],
      [4_000, 20],
      [5_000, 30],
      [5_500, 40],
      [7_500, 50],
    ]);
    const stalls = longestStops(
      progress,
      [
        { fault: 'second', atMs: 5_000 },
        { fault: 'first', atMs: 1_000 },
      ],
      0,
      8_000,
      50,
    );
    expect(stalls.map((s) => [s.fault, s.longestStopSeconds])).toEqual([
      ['first', 3],
      ['second', 2],
    ]);
  });

  it('counts a stop that lasts to the end of the window when records are still missing', () => {
    const stalls = longestStops(
      samples([
        [0, 5],
        [1_000, 5],
        [2_000, 5],
      ]),
      [{ fault: 'two down', atMs: 500 }],
      0,
      10_500,
      50,
    );
    expect(stalls[0]!.longestStopSeconds).toBe(10);
  });

  it('ends a window at the last record once everything is handled', () => {
    const stalls = longestStops(
      samples([
        [0, 40],
        [1_000, 50],
        [9_000, 50],
      ]),
      [{ fault: 'late', atMs: 500 }],
      0,
      9_000,
      50,
    );
    expect(stalls[0]!.longestStopSeconds).toBe(0.5);
  });
});
