import { describe, expect, it } from 'vitest';
import { formatTimeTick, formatWallDateTime, niceDurationTicks, niceTimeTicks, niceValueTicks } from './axis';

const at = (iso: string) => Date.parse(iso);

describe('niceTimeTicks', () => {
  it('puts a 15-minute range on whole minutes, not on the odd seconds the range starts at', () => {
    const ticks = niceTimeTicks(at('2026-12-01T06:08:45Z'), at('2026-12-01T06:23:45Z'), 6, 'utc');
    expect(ticks.map((t) => new Date(t).toISOString().slice(11, 19))).toEqual(['06:10:00', '06:15:00', '06:20:00']);
  });

  it('puts a 24-hour range on whole hours of the chosen step and a 7-day range on midnights', () => {
    const day = niceTimeTicks(at('2026-12-01T06:08:45Z'), at('2026-12-02T06:08:45Z'), 6, 'utc');
    expect(day.every((t) => new Date(t).getUTCMinutes() === 0 && new Date(t).getUTCHours() % 6 === 0)).toBe(true);
    const week = niceTimeTicks(at('2026-11-24T06:08:45Z'), at('2026-12-01T06:08:45Z'), 8, 'utc');
    expect(week).toHaveLength(7);
    expect(week.every((t) => new Date(t).toISOString().endsWith('T00:00:00.000Z'))).toBe(true);
  });

  it('never returns more ticks than asked for, nor ticks outside the range', () => {
    const from = at('2026-12-01T00:00:07Z');
    const to = at('2026-12-01T00:59:53Z');
    for (const max of [2, 4, 6, 10]) {
      const ticks = niceTimeTicks(from, to, max, 'utc');
      expect(ticks.length).toBeLessThanOrEqual(max);
      expect(ticks.length).toBeGreaterThan(0);
      expect(ticks.every((t) => t >= from && t <= to)).toBe(true);
    }
  });

  it('answers no ticks for an empty or reversed range', () => {
    expect(niceTimeTicks(10, 10, 6, 'utc')).toEqual([]);
    expect(niceTimeTicks(20, 10, 6, 'utc')).toEqual([]);
  });
});

describe('tick and date labels', () => {
  it('formats 24-hour labels as short as the step allows', () => {
    const t = at('2026-12-01T18:05:30Z');
    expect(formatTimeTick(t, 30_000, 'utc')).toBe('18:05:30');
    expect(formatTimeTick(t, 5 * 60_000, 'utc')).toBe('18:05');
    expect(formatTimeTick(at('2026-12-02T00:00:00Z'), 3_600_000, 'utc')).toBe('12-02');
    expect(formatTimeTick(t, 86_400_000, 'utc')).toBe('12-01');
  });

  it('writes one sortable 24-hour date-time, never a 12-hour US one', () => {
    expect(formatWallDateTime(at('2026-12-01T18:24:00Z'), 'utc')).toBe('2026-12-01 18:24:00');
  });
});

describe('value ticks', () => {
  it('steps counts by 1, 2 or 5 times a power of ten, up to at least the maximum', () => {
    expect(niceValueTicks(950)).toEqual([0, 500, 1000]);
    expect(niceValueTicks(9_500)).toEqual([0, 5_000, 10_000]);
    expect(niceValueTicks(0.7)).toEqual([0, 0.2, 0.4, 0.6, 0.8]);
    expect(niceValueTicks(0)).toEqual([0, 1]);
  });

  it('steps durations at round durations (never 6m40s or 13m20s)', () => {
    expect(niceDurationTicks(20 * 60_000)).toEqual([0, 5, 10, 15, 20].map((m) => m * 60_000));
    expect(niceDurationTicks(47_000)).toEqual([0, 15_000, 30_000, 45_000, 60_000]);
    expect(niceDurationTicks(5 * 3_600_000)).toEqual([0, 2, 4, 6].map((h) => h * 3_600_000));
  });
});
