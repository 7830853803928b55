import { existsSync, readFileSync } from 'node:fs';

export interface SuiteCount {
  suite: string;
  passed: number;
  failed: number;
  skipped: number;
}

/** Counts from vitest's JSON reporter; a missing report counts as one failure (the suite did not run). */
export function readVitestCounts(suite: string, file: string): SuiteCount {
  if (!existsSync(file)) return { suite, passed: 0, failed: 1, skipped: 0 };
  const report = JSON.parse(readFileSync(file, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
    numFailedTestSuites: number;
  };
  // A file that fails to load has no tests but is a failure all the same.
  const brokenFiles = report.numFailedTestSuites > 0 && report.numFailedTests === 0 ? report.numFailedTestSuites : 0;
  return {
    suite,
    passed: report.numPassedTests,
    failed: report.numFailedTests + brokenFiles,
    skipped: report.numPendingTests + report.numTodoTests,
  };
}

/** Counts from Playwright's JSON reporter; flaky tests (passed on retry) count as passed. */
export function readPlaywrightCounts(suite: string, file: string): SuiteCount {
  if (!existsSync(file)) return { suite, passed: 0, failed: 1, skipped: 0 };
  const report = JSON.parse(readFileSync(file, 'utf8')) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
    errors?: unknown[];
  };
  const { expected, unexpected, flaky, skipped } = report.stats;
  const globalErrors = report.errors?.length ?? 0;
  return { suite, passed: expected + flaky, failed: unexpected + (unexpected === 0 ? globalErrors : 0), skipped };
}

export function summaryLine(counts: SuiteCount[]): string {
  const sum = (key: 'passed' | 'failed' | 'skipped') => counts.reduce((total, c) => total + c[key], 0);
  const skipped = sum('skipped');
  return `${sum('passed')} passed, ${sum('failed')} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
}

/** One count per suite, in first-seen order: a suite run in parts (integration in both lanes) sums its parts. */
export function mergeSuiteCounts(counts: SuiteCount[]): SuiteCount[] {
  const merged = new Map<string, SuiteCount>();
  for (const c of counts) {
    const seen = merged.get(c.suite);
    merged.set(
      c.suite,
      seen
        ? {
            suite: c.suite,
            passed: seen.passed + c.passed,
            failed: seen.failed + c.failed,
            skipped: seen.skipped + c.skipped,
          }
        : { ...c },
    );
  }
  return [...merged.values()];
}
