import { describe, expect, it } from 'vitest';
import { formatBacktestTable, formatRepeatTable, judgeRow, summarizeRepeats, type BacktestRow } from './verdict';

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

describe('summarizeRepeats', () => {
  it('judges each scenario on its median error and reports the spread and the runs that passed', () => {
    const summaries = summarizeRepeats([
      row({ measuredSec: 21 }), // +5%
      row({ measuredSec: 26 }), // +30%: this run alone fails
      row({ measuredSec: 18 }), // -10%
      row({ scenario: 'hot-partition', measuredSec: 26 }),
      row({ scenario: 'hot-partition', measuredSec: 28 }),
      row({ scenario: 'shared-limit-first-plan', measuredSec: 60 }),
    ]);
    expect(summaries).toEqual([
      { scenario: 'io-bound', runs: 3, passedRuns: 2, medianError: 0.05, minError: -0.1, maxError: 0.3, passed: true },
      {
        scenario: 'hot-partition',
        runs: 2,
        passedRuns: 0,
        medianError: expect.closeTo(0.35, 9),
        minError: 0.3,
        maxError: 0.4,
        passed: false,
      },
      {
        scenario: 'shared-limit-first-plan',
        runs: 1,
        passedRuns: 1,
        medianError: 2,
        minError: 2,
        maxError: 2,
        passed: true,
      },
    ]);
    expect(formatRepeatTable(summaries)).toBe(
      [
        '| scenario | runs | median error | spread | runs passed | verdict |',
        '|---|---|---|---|---|---|',
        '| io-bound | 3 | +5% | -10% … +30% | 2 of 3 | PASS |',
        '| hot-partition | 2 | +35% | +30% … +40% | 0 of 2 | FAIL |',
        '| shared-limit-first-plan | 1 | +200% | +200% … +200% | 1 of 1 | informational |',
      ].join('\n'),
    );
  });

  it('fails a scenario with a run that never caught up or missed its statement, whatever the median', () => {
    const [never] = summarizeRepeats([row({}), row({}), row({ measuredSec: null })]);
    expect(never).toMatchObject({ runs: 3, medianError: 0.2, passed: false });
    const [silent] = summarizeRepeats([
      row({ scenario: 'hot-partition', requiredStatement: false }),
      row({ scenario: 'hot-partition' }),
    ]);
    expect(silent).toMatchObject({ medianError: 0.2, passed: false });
  });
});
