import { describe, expect, it } from 'vitest';
import { formatBacktestTable, judgeRow, type BacktestRow } from './verdict';

const row = (over: Partial<BacktestRow>): BacktestRow => ({
  scenario: 'io-bound',
  consumersThen: 1,
  recommended: 4,
  predictedSec: 20,
  measuredSec: 24,
  requiredStatement: true,
  summary: 'Scale consumers to 4 to catch up in 20 s.',
  ...over,
});

describe('judgeRow', () => {
  it('passes within 25% either way, and fails beyond', () => {
    expect(judgeRow(row({ measuredSec: 25 }))).toEqual({ error: 0.25, passed: true, reason: 'within 25%' });
    expect(judgeRow(row({ measuredSec: 15 })).passed).toBe(true);
    expect(judgeRow(row({ measuredSec: 25.2 })).passed).toBe(false);
    expect(judgeRow(row({ measuredSec: 14.8 })).passed).toBe(false);
    expect(judgeRow(row({ measuredSec: null }))).toMatchObject({ passed: false, error: null });
  });

  it('fails a hot-partition plan that did not say more consumers do not help, however close its time', () => {
    expect(judgeRow(row({ scenario: 'hot-partition', measuredSec: 20, requiredStatement: false }))).toMatchObject({
      passed: false,
      reason: 'the plan did not say more consumers do not help',
    });
  });

  it('after a seen scale-out under a shared limit, only a late catch-up fails', () => {
    const after = row({ scenario: 'shared-limit-after-scale-out', predictedSec: 30 });
    expect(judgeRow({ ...after, measuredSec: 10 }).passed).toBe(true);
    expect(judgeRow({ ...after, measuredSec: 37.5 }).passed).toBe(true);
    expect(judgeRow({ ...after, measuredSec: 38 })).toMatchObject({
      passed: false,
      reason: 'promised more than it delivered',
    });
    expect(judgeRow({ ...after, predictedSec: null }).passed).toBe(false);
  });

  it('reports the first shared-limit plan without judging it', () => {
    expect(judgeRow(row({ scenario: 'shared-limit-first-plan', predictedSec: 9, measuredSec: 37 }))).toMatchObject({
      passed: true,
      error: (37 - 9) / 9,
    });
  });
});

describe('formatBacktestTable', () => {
  it('prints one line per scenario with predicted, measured, error and verdict', () => {
    expect(formatBacktestTable([row({}), row({ scenario: 'hot-partition', measuredSec: null })])).toBe(
      [
        '| scenario | consumers then → run | predicted T | measured T | error | verdict |',
        '|---|---|---|---|---|---|',
        '| io-bound | 1 → 4 | 20.0 s | 24.0 s | +20% | PASS: within 25% |',
        '| hot-partition | 1 → 4 | 20.0 s | never | — | FAIL: did not catch up before the time ran out |',
      ].join('\n'),
    );
  });
});
