import type { DashboardConfig } from '../config';

/** The analysis settings every read endpoint and the worker's alert evaluation share. */
export function analysisOptions(
  config: Pick<
    DashboardConfig,
    'TIME_LAG_OBJECTIVE_MS' | 'ADVISOR_RATE_WINDOW_MS' | 'ADVISOR_TARGET_CATCH_UP_SEC' | 'ADVISOR_CLIENT_SETTINGS'
  >,
) {
  return {
    timeLagObjectiveMs: config.TIME_LAG_OBJECTIVE_MS === 0 ? null : config.TIME_LAG_OBJECTIVE_MS,
    rateWindowMs: config.ADVISOR_RATE_WINDOW_MS,
    targetCatchUpSec: config.ADVISOR_TARGET_CATCH_UP_SEC,
    clientSettings: config.ADVISOR_CLIENT_SETTINGS,
  };
}
