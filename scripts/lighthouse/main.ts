// npm run lighthouse - Lighthouse (mobile profile, Debian Chromium) against the built dashboard: seeds the
// database named by DATABASE_URL (it must end in `_ui` or `_lighthouse`; scripts/lighthouse/seed-dashboard.ts),
// starts `next start` on WARDEN_TEST_PORT_BASE + 200, signs in, and prints performance, accessibility and
// best-practices scores per page, plus the largest contentful paint, total blocking time and the host's CPU
// index (Lighthouse's benchmarkIndex: the same page scores lower on a slower or busier host). Beside the scores
// it writes where each page's main thread went (Lighthouse's main-thread work by category and its script
// boot-up time per script, the parts that stay comparable under load) and every failed audit to
// `.warden/lighthouse.json`, and each page's whole report to `.warden/lighthouse-reports/`. Needs a `next build`
// first. A measurement, not a test: it fails only when a page cannot be audited.
//   npm run lighthouse [-- --skip-seed] [-- --only /groups/orders-pipeline]
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../lib/config';
import { OPERATOR } from '../../e2e/credentials';
import { signInCookie, startBuiltDashboard } from '../lib/built-dashboard';
import { seedDashboard, SEEDED_GROUP } from './seed-dashboard';

const ROOT = path.resolve(__dirname, '../..');
const NOT_FOUND_PAGE = '/no-such-page';
const PAGES = ['/', `/groups/${SEEDED_GROUP}`, '/quarantine', '/rebalances', '/alerts', '/audit', NOT_FOUND_PAGE];

interface Scores {
  page: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  tbtMs: number;
  /**
   * Lighthouse's measure of the host's CPU at the time of the run. The 4x CPU slowdown of the mobile profile is
   * calibrated for a host of 1,500-2,000 (Lighthouse's docs/throttling.md); a busy or slow host scores lower
   * without the page changing, so a score is read beside it.
   */
  benchmarkIndex: number;
  /** Lighthouse's `mainthread-work-breakdown`: milliseconds per kind of work (script evaluation, style, ...). */
  mainThreadMs: Record<string, number>;
  /** Lighthouse's `bootup-time`: per script, the milliseconds spent evaluating and parsing it. */
  scripts: { url: string; totalMs: number; scriptingMs: number; parseMs: number }[];
  /** Audits of the three categories that scored below 0.9, with Lighthouse's display value. */
  failedAudits: { id: string; score: number; displayValue?: string }[];
}

interface TableDetails {
  items?: Record<string, unknown>[];
}

function tableItems(audit: { details?: unknown } | undefined): Record<string, unknown>[] {
  return (audit?.details as TableDetails | undefined)?.items ?? [];
}

async function audit(baseUrl: string, page: string, cookie: string): Promise<Scores> {
  // Both are ES modules only; imported where used so this script stays CommonJS like the others.
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const chrome = await chromeLauncher.launch({
    chromePath: '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-quic'],
  });
  try {
    const result = await lighthouse(
      `${baseUrl}${page}`,
      {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
        extraHeaders: { Cookie: cookie },
        // Lighthouse refuses a document answered with a 4xx unless told it is meant; only the 404 page is.
        ignoreStatusCode: page === NOT_FOUND_PAGE,
      },
      undefined,
    );
    if (!result) throw new Error(`lighthouse returned nothing for ${page}`);
    // The whole report per page, for what the summary leaves out (the LCP element, long tasks, requests).
    const reports = path.join(ROOT, '.warden', 'lighthouse-reports');
    mkdirSync(reports, { recursive: true });
    writeFileSync(path.join(reports, `${page.replace(/[^a-z0-9]+/gi, '_') || 'root'}.json`), String(result.report));
    if (result.lhr.runtimeError) {
      throw new Error(`lighthouse could not audit ${page}: ${result.lhr.runtimeError.message}`);
    }
    const { categories, audits } = result.lhr;
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    const mainThreadMs = Object.fromEntries(
      tableItems(audits['mainthread-work-breakdown']).map((item) => [
        String(item.groupLabel ?? item.group),
        Math.round(Number(item.duration)),
      ]),
    );
    const scripts = tableItems(audits['bootup-time']).map((item) => ({
      url: String(item.url),
      totalMs: Math.round(Number(item.total)),
      scriptingMs: Math.round(Number(item.scripting)),
      parseMs: Math.round(Number(item.scriptParseCompile)),
    }));
    const auditIds = ['performance', 'accessibility', 'best-practices'].flatMap(
      (id) => categories[id]?.auditRefs.map((ref) => ref.id) ?? [],
    );
    const failedAudits = auditIds.flatMap((id) => {
      const entry = audits[id];
      return entry && entry.score !== null && entry.score < 0.9
        ? [{ id, score: entry.score, displayValue: entry.displayValue }]
        : [];
    });
    return {
      page,
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? NaN),
      tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? NaN),
      benchmarkIndex: Math.round(result.lhr.environment.benchmarkIndex),
      mainThreadMs,
      scripts,
      failedAudits,
    };
  } finally {
    chrome.kill();
  }
}

async function main(argv: string[]): Promise<void> {
  const config = loadConfig();
  const skipSeed = argv.includes('--skip-seed');
  const only = argv.includes('--only') ? [argv[argv.indexOf('--only') + 1]!] : PAGES;
  if (!skipSeed) await seedDashboard(config.DATABASE_URL, (line) => console.log(line));
  const port = config.WARDEN_TEST_PORT_BASE + 200;
  const server = startBuiltDashboard(port, config.DATABASE_URL);
  const { baseUrl } = server;
  try {
    await server.ready();
    const cookie = await signInCookie(baseUrl, OPERATOR);
    const rows: Scores[] = [];
    for (const page of only) {
      const row = await audit(baseUrl, page, cookie);
      rows.push(row);
      console.log(
        `${row.page.padEnd(28)} performance ${row.performance}  accessibility ${row.accessibility}  best practices ${row.bestPractices}  LCP ${row.lcpMs} ms  TBT ${row.tbtMs} ms  host CPU index ${row.benchmarkIndex}`,
      );
      console.log(
        `  main thread: ${Object.entries(row.mainThreadMs)
          .map(([kind, ms]) => `${kind} ${ms} ms`)
          .join(', ')}`,
      );
      for (const script of row.scripts.slice(0, 5)) {
        console.log(
          `  script ${script.url}: ${script.totalMs} ms (evaluation ${script.scriptingMs}, parse ${script.parseMs})`,
        );
      }
      if (row.failedAudits.length > 0) {
        console.log(
          `  below 0.9: ${row.failedAudits.map((a) => `${a.id}${a.displayValue ? ` (${a.displayValue})` : ''}`).join(', ')}`,
        );
      }
    }
    const out = path.join(ROOT, '.warden', 'lighthouse.json');
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify(rows, null, 2));
    console.log(`scores written to ${out}`);
  } finally {
    server.stop();
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);
