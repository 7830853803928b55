import type { AnalysisSettings } from '../config/base';

/** The analysis settings every read endpoint and the worker's alert evaluation share. */
export function analysisOptions(config: AnalysisSettings) {
  return {
    timeLagObjectiveMs: config.TIME_LAG_OBJECTIVE_MS === 0 ? null : config.TIME_LAG_OBJECTIVE_MS,
    rateWindowMs: config.ADVISOR_RATE_WINDOW_MS,
    targetCatchUpSec: config.ADVISOR_TARGET_CATCH_UP_SEC,
    clientSettings: config.ADVISOR_CLIENT_SETTINGS,
  };
}
