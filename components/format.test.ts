import { describe, expect, it } from 'vitest';
import {
  describeHistoryEntry,
  describeTimeLag,
  formatBlocking,
  formatClock,
  formatFailures,
  formatHeldSince,
  formatTimeLag,
  isStale,
} from './format';

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
    // An idle group is stored only every idleStoreMs: 26 s is not stale then, 56 s is.
    expect(isStale('2026-11-29T11:59:34Z', now, 5_000, 30_000)).toBe(false);
    expect(isStale('2026-11-29T11:59:04Z', now, 5_000, 30_000)).toBe(true);
  });
});

describe('quarantine card texts', () => {
  // Local times, so the expectations hold in any time zone.
  const since = new Date(2026, 11, 1, 6, 21, 1).toISOString();
  const now = new Date(2026, 11, 1, 6, 25, 11).getTime();

  it('says since when a record is held and for how long', () => {
    expect(formatClock(since, 'local')).toBe('06:21:01');
    expect(formatHeldSince(since, now, 'local')).toBe('held since 06:21:01 (4 min 10 s)');
  });

  it("says only since while the viewer's clock is not known (server render, hydration)", () => {
    expect(formatHeldSince(since, null, 'local')).toBe('held since 06:21:01');
  });

  it('counts failures', () => {
    expect(formatFailures(1)).toBe('failed once');
    expect(formatFailures(4)).toBe('failed 4 times');
  });

  it('says what a hold costs, and which figure is a minimum or unknown', () => {
    expect(formatBlocking({ records: 5022, timeLag: { ms: 250_000, kind: 'exact' } })).toBe(
      'blocking 5,022 records, 4 min 10 s of time lag',
    );
    expect(formatBlocking({ records: 1, timeLag: { ms: 600_000, kind: 'lower-bound' } })).toBe(
      'blocking 1 record, at least 10 min of time lag',
    );
    expect(formatBlocking({ records: null, timeLag: { ms: null, kind: 'unknown' } })).toBe(
      'blocking an unknown number of records; time lag unknown',
    );
  });

  it('describes an action on the record with its outcome', () => {
    const requestedAt = new Date(2026, 11, 1, 6, 24, 3).toISOString();
    expect(
      describeHistoryEntry(
        {
          action: 'resume',
          requestedBy: 'operator',
          requestedAt,
          status: 'failed_again',
          outcome: 'resumed, but offset 7 failed again with the same error: bad json',
        },
        'local',
      ),
    ).toBe(
      'resumed by operator at 06:24:03 — failed again: resumed, but offset 7 failed again with the same error: bad json',
    );
    expect(
      describeHistoryEntry(
        { action: 'skip', requestedBy: 'alice', requestedAt, status: 'pending', outcome: null },
        'local',
      ),
    ).toBe('skipped by alice at 06:24:03 — not applied yet');
  });
});
