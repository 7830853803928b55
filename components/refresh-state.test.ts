import { describe, expect, it } from 'vitest';
import { refreshState } from './refresh-state';

describe('refreshState', () => {
  const lastSuccess = new Date(2026, 11, 1, 6, 21, 1).getTime();
  const ok = { isFetching: false, dataUpdatedAt: lastSuccess, errorUpdatedAt: 0, failureCount: 0 };

  it('is live while refreshes succeed', () => {
    expect(refreshState(ok, 3_000, 'local')).toEqual({ tone: 'live', text: 'Live · every 3 s' });
    expect(refreshState({ ...ok, isFetching: true }, 3_000, 'local')).toEqual({
      tone: 'refreshing',
      text: 'Refreshing…',
    });
  });

  it('says stale since the last success once a refresh failed, also while it retries', () => {
    const failed = { ...ok, errorUpdatedAt: lastSuccess + 9_000, failureCount: 2 };
    expect(refreshState(failed, 3_000, 'local')).toEqual({ tone: 'stale', text: 'stale since 06:21:01' });
    // In the zone the viewer chose: the same instant in UTC.
    const utcClock = new Date(lastSuccess).toISOString().slice(11, 19);
    expect(refreshState(failed, 3_000, 'utc')).toEqual({ tone: 'stale', text: `stale since ${utcClock}` });
    expect(refreshState({ ...failed, isFetching: true }, 3_000, 'local').tone).toBe('stale');
    expect(refreshState({ ...ok, failureCount: 1, isFetching: true }, 3_000, 'local').tone).toBe('stale');
  });

  it('is live again after a success that follows a failure', () => {
    expect(refreshState({ ...ok, errorUpdatedAt: lastSuccess - 1_000 }, 3_000, 'local').tone).toBe('live');
  });

  it('says so when nothing ever loaded', () => {
    expect(
      refreshState({ isFetching: false, dataUpdatedAt: 0, errorUpdatedAt: 5, failureCount: 1 }, 3_000, 'local'),
    ).toEqual({
      tone: 'stale',
      text: 'not loaded: refreshes are failing',
    });
  });
});
