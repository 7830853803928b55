import type { DisplayZone } from '@/lib/charts/axis';
import { formatClock } from './format';

/** What a page knows of its polling query (the fields React Query's result carries). */
export interface PollingQuery {
  isFetching: boolean;
  /** When the last successful response arrived (ms since the epoch; 0 before the first). */
  dataUpdatedAt: number;
  /** When the last failed request ended (0 when none failed). */
  errorUpdatedAt: number;
  /** Failures since the last success (a retry in progress counts). */
  failureCount: number;
}

/**
 * The page header's liveness: "Live · every 3 s" only while refreshes succeed. Once a refresh failed after
 * the last success, the data on screen is history: "stale since 06:21:01" (the last success) in warning
 * colour, also while the next attempt is under way, so a retry never looks like recovery.
 */
export function refreshState(
  query: PollingQuery,
  refreshMs: number,
  zone: DisplayZone,
): { tone: 'live' | 'refreshing' | 'stale'; text: string } {
  const failing = query.failureCount > 0 || query.errorUpdatedAt > query.dataUpdatedAt;
  if (failing) {
    return {
      tone: 'stale',
      text:
        query.dataUpdatedAt > 0
          ? `stale since ${formatClock(new Date(query.dataUpdatedAt).toISOString(), zone)}`
          : 'not loaded: refreshes are failing',
    };
  }
  if (query.isFetching) return { tone: 'refreshing', text: 'Refreshing…' };
  return { tone: 'live', text: `Live · every ${Math.max(1, Math.round(refreshMs / 1000))} s` };
}
