// The backtest's judgement per scenario, and its table. Pure.

import { median } from '../bench/stats';
import type { DrainComponents } from './drain-components';

export type ScenarioKind = 'io-bound' | 'hot-partition' | 'shared-limit-first-plan' | 'shared-limit-after-scale-out';

export interface BacktestRow {
  scenario: ScenarioKind;
  /** Consumers when the plan was read, and the count it recommended (and the backtest then ran). */
  consumersThen: number;
  recommended: number;
  predictedSec: number | null;
  /** null: not under the threshold before the scenario's time ran out. */
  measuredSec: number | null;
  /** What the plan had to say for the scenario to pass, beyond its time (e.g. "more consumers do not help"). */
  requiredStatement: boolean;
  summary: string;
  /** Where the measured time went (drain-components.ts); absent for a row measured on a run already judged. */
  components?: DrainComponents;
}

/** Within this relative error a catch-up time counts as kept. */
export const TOLERANCE = 0.25;

export interface Verdict {
  error: number | null;
  passed: boolean;
  reason: string;
}

/**
 * - io-bound, hot-partition: measured within 25% of predicted, and (hot) the plan said more consumers do
 *   not help.
 * - shared-limit-first-plan: reported, never failed: with no scale-out seen, the advisor can only assume
 *   linear scaling; the row shows what that assumption costs.
 * - shared-limit-after-scale-out: the plan must not promise a catch-up it cannot deliver: measured at most
 *   25% over predicted (earlier is fine), and it said the measured scaling is the limit.
 */
export function judgeRow(row: BacktestRow): Verdict {
  const error =
    row.predictedSec !== null && row.measuredSec !== null && row.predictedSec > 0
      ? (row.measuredSec - row.predictedSec) / row.predictedSec
      : null;
  if (row.scenario === 'shared-limit-first-plan')
    return { error, passed: true, reason: 'informational: no scale-out seen yet, linear scaling assumed' };
  if (row.predictedSec === null) return { error, passed: false, reason: 'the plan promised no catch-up time' };
  if (row.measuredSec === null) return { error, passed: false, reason: 'did not catch up before the time ran out' };
  if (!row.requiredStatement)
    return {
      error,
      passed: false,
      reason:
        row.scenario === 'hot-partition'
          ? 'the plan did not say more consumers do not help'
          : 'the plan did not state the measured scaling limit',
    };
  const kept = error !== null && errorWithinRule(row.scenario, error);
  if (row.scenario === 'shared-limit-after-scale-out')
    return { error, passed: kept, reason: kept ? 'no promise it could not keep' : 'promised more than it delivered' };
  return { error, passed: kept, reason: kept ? 'within 25%' : 'off by more than 25%' };
}

/** After a seen scale-out only a late catch-up breaks the promise; elsewhere 25% either way. */
function errorWithinRule(scenario: ScenarioKind, error: number): boolean {
  return scenario === 'shared-limit-after-scale-out' ? error <= TOLERANCE : Math.abs(error) <= TOLERANCE;
}

const seconds = (s: number | null) => (s === null ? 'never' : `${s.toFixed(1)} s`);
const percent = (e: number | null) => (e === null ? '—' : `${e >= 0 ? '+' : ''}${Math.round(e * 100)}%`);

/** A Markdown table: one line per row, with its verdict. */
export function formatBacktestTable(rows: readonly BacktestRow[]): string {
  const header = '| scenario | consumers then → run | predicted T | measured T | error | verdict |';
  const lines = rows.map((row) => {
    const verdict = judgeRow(row);
    return (
      `| ${row.scenario} | ${row.consumersThen} → ${row.recommended} | ${seconds(row.predictedSec)} | ` +
      `${seconds(row.measuredSec)} | ${percent(verdict.error)} | ${verdict.passed ? 'PASS' : 'FAIL'}: ${verdict.reason} |`
    );
  });
  return [header, '|---|---|---|---|---|---|', ...lines].join('\n');
}

export interface RepeatedScenario {
  scenario: ScenarioKind;
  runs: number;
  passedRuns: number;
  /** Median, smallest and largest error over the runs that have one; null when none has. */
  medianError: number | null;
  minError: number | null;
  maxError: number | null;
  /**
   * Every run caught up and made its required statement, and the median error is within the scenario's rule
   * (judgeRow's). shared-limit-first-plan always passes: informational.
   */
  passed: boolean;
}

/**
 * Several runs of a scenario on a shared machine: one run's error carries the load of the moment, so the
 * judgement is on the median error (the same rule as judgeRow) and the spread is reported beside it.
 */
export function summarizeRepeats(rows: readonly BacktestRow[]): RepeatedScenario[] {
  const kinds = [...new Set(rows.map((row) => row.scenario))];
  return kinds.map((scenario) => {
    const runs = rows.filter((row) => row.scenario === scenario);
    const verdicts = runs.map(judgeRow);
    const errors = verdicts.map((v) => v.error).filter((e): e is number => e !== null);
    const medianError = median(errors);
    const caughtUp = runs.every((row) => row.measuredSec !== null && row.predictedSec !== null);
    const statements = runs.every((row) => row.requiredStatement);
    const medianPassed = medianError !== null && errorWithinRule(scenario, medianError);
    return {
      scenario,
      runs: runs.length,
      passedRuns: verdicts.filter((v) => v.passed).length,
      medianError,
      minError: errors.length > 0 ? Math.min(...errors) : null,
      maxError: errors.length > 0 ? Math.max(...errors) : null,
      passed: scenario === 'shared-limit-first-plan' || (caughtUp && statements && medianPassed),
    };
  });
}

/** A Markdown table of repeated runs: median error, spread and the runs within the scenario's rule. */
export function formatRepeatTable(summaries: readonly RepeatedScenario[]): string {
  const header = '| scenario | runs | median error | spread | runs passed | verdict |';
  const lines = summaries.map(
    (s) =>
      `| ${s.scenario} | ${s.runs} | ${percent(s.medianError)} | ${percent(s.minError)} … ${percent(s.maxError)} | ` +
      `${s.passedRuns} of ${s.runs} | ${s.scenario === 'shared-limit-first-plan' ? 'informational' : s.passed ? 'PASS' : 'FAIL'} |`,
  );
  return [header, '|---|---|---|---|---|---|', ...lines].join('\n');
}
