import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeSuiteCounts, readPlaywrightCounts, readVitestCounts, summaryLine } from './test-counts';

const dir = mkdtempSync(path.join(tmpdir(), 'warden-counts-'));
const write = (name: string, body: unknown) => {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(body));
  return file;
};

describe('test counts', () => {
  it('reads vitest reports and counts a file that failed to load as a failure', () => {
    const ok = write('ok.json', {
      numPassedTests: 5,
      numFailedTests: 1,
      numPendingTests: 0,
      numTodoTests: 0,
      numFailedTestSuites: 1,
    });
    const broken = write('broken.json', {
      numPassedTests: 3,
      numFailedTests: 0,
      numPendingTests: 1,
      numTodoTests: 0,
      numFailedTestSuites: 2,
    });
    expect(readVitestCounts('unit', ok)).toEqual({ suite: 'unit', passed: 5, failed: 1, skipped: 0 });
    expect(readVitestCounts('unit', broken)).toEqual({ suite: 'unit', passed: 3, failed: 2, skipped: 1 });
  });

  it('counts a suite that produced no report as failed', () => {
    expect(readVitestCounts('integration', path.join(dir, 'absent.json')).failed).toBe(1);
    expect(readPlaywrightCounts('e2e', path.join(dir, 'absent.json')).failed).toBe(1);
  });

  it('reads playwright stats, counting global errors when no test failed', () => {
    const file = write('pw.json', {
      stats: { expected: 2, unexpected: 0, flaky: 1, skipped: 0 },
      errors: [{ message: 'webServer' }],
    });
    expect(readPlaywrightCounts('e2e', file)).toEqual({ suite: 'e2e', passed: 3, failed: 1, skipped: 0 });
  });

  it('sums suites into the plain closing line', () => {
    expect(
      summaryLine([
        { suite: 'a', passed: 3, failed: 0, skipped: 0 },
        { suite: 'b', passed: 2, failed: 1, skipped: 0 },
      ]),
    ).toBe('5 passed, 1 failed');
    expect(summaryLine([{ suite: 'a', passed: 1, failed: 0, skipped: 2 }])).toBe('1 passed, 0 failed, 2 skipped');
  });

  it('sums the parts of a suite run in two lanes into one count, keeping the order suites first appeared in', () => {
    expect(
      mergeSuiteCounts([
        { suite: 'unit', passed: 4, failed: 0, skipped: 1 },
        { suite: 'integration', passed: 10, failed: 1, skipped: 0 },
        { suite: 'e2e', passed: 6, failed: 0, skipped: 0 },
        { suite: 'integration', passed: 2, failed: 1, skipped: 3 },
      ]),
    ).toEqual([
      { suite: 'unit', passed: 4, failed: 0, skipped: 1 },
      { suite: 'integration', passed: 12, failed: 2, skipped: 3 },
      { suite: 'e2e', passed: 6, failed: 0, skipped: 0 },
    ]);
  });
});
