// The backtest's judgement per scenario, and its table. Pure.

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
  if (row.scenario === 'shared-limit-after-scale-out') {
    const kept = error !== null && error <= TOLERANCE;
    return { error, passed: kept, reason: kept ? 'no promise it could not keep' : 'promised more than it delivered' };
  }
  const within = error !== null && Math.abs(error) <= TOLERANCE;
  return { error, passed: within, reason: within ? 'within 25%' : 'off by more than 25%' };
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
