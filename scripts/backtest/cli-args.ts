// npm run backtest's own options (main.ts parses the command line, this checks the values). Pure.
import { UsageError } from '../lib/command-line';

/** The scenarios of run-backtest.ts, in the order they run. */
export const BACKTEST_SCENARIO_NAMES = ['io-bound', 'hot-partition', 'shared-limit'] as const;
export type ScenarioName = (typeof BACKTEST_SCENARIO_NAMES)[number];

/** --repeat (1..20, default 1) and --only (default all); a bad value is a UsageError naming it. */
export function parseBacktestArgs(values: { repeat?: string; only?: string }): {
  repeat: number;
  only: ScenarioName[];
} {
  const repeat = values.repeat === undefined ? 1 : Number(values.repeat);
  if (!Number.isInteger(repeat) || repeat < 1 || repeat > 20)
    throw new UsageError(`--repeat must be an integer from 1 to 20, got "${values.repeat}"`);
  const only =
    values.only === undefined ? [...BACKTEST_SCENARIO_NAMES] : values.only.split(',').map((name) => name.trim());
  const unknown = only.filter((name) => !BACKTEST_SCENARIO_NAMES.includes(name as ScenarioName));
  if (unknown.length > 0 || only.length === 0)
    throw new UsageError(
      `--only takes scenario names from ${BACKTEST_SCENARIO_NAMES.join(', ')}, got "${values.only}"`,
    );
  return { repeat, only: only as ScenarioName[] };
}
