import { describe, expect, it } from 'vitest';
import { describeTimeLag, formatTimeLag, isStale } from './format';

describe('formatTimeLag', () => {
  it('reads in human units, marks lower bounds and never shows NaN', () => {
    expect(formatTimeLag({ ms: 260_000, kind: 'interpolated' })).toBe('4 min 20 s');
    expect(formatTimeLag({ ms: 600_000, kind: 'lower-bound' })).toBe('≥ 10 min');
    expect(formatTimeLag({ ms: 0, kind: 'caught-up' })).toBe('0 s');
    expect(formatTimeLag({ ms: null, kind: 'unknown' })).toBe('—');
    expect(formatTimeLag(null)).toBe('—');
  });
  it('says how it was estimated', () => {
    expect(describeTimeLag({ ms: 1, kind: 'lower-bound', basis: 'lag-samples' })).toEqual({
      label: 'at least',
      explanation:
        "The waiting record is older than every observation kept, so this is a minimum; from the stored samples' log-end offsets over time.",
    });
    expect(describeTimeLag({ ms: 1, kind: 'exact', basis: 'record-timestamp' }).label).toBe('exact');
  });
});

describe('isStale', () => {
  const now = Date.parse('2026-11-29T12:00:00Z');
  it('allows three sampler rounds and ten seconds of slack', () => {
    expect(isStale('2026-11-29T11:59:36Z', now, 5_000)).toBe(false); // 24 s
    expect(isStale('2026-11-29T11:59:34Z', now, 5_000)).toBe(true); // 26 s
  });
});
