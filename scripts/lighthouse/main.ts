// npm run lighthouse - Lighthouse (mobile profile, Debian Chromium) against the built dashboard: seeds the
// database named by DATABASE_URL (it must end in `_ui` or `_lighthouse`; scripts/lighthouse/seed-dashboard.ts)
// and, on a bundled broker of its own (WARDEN_TEST_PORT_BASE + 292, unless KAFKA_BROKERS names one), a
// dead-letter topic (seed-dead-letters.ts), starts `next start` on WARDEN_TEST_PORT_BASE + 200, signs in, and
// prints performance, accessibility and best-practices scores per page (the sign-in page signed out), plus the largest contentful paint, total blocking time and the host's CPU
// index (Lighthouse's benchmarkIndex: the same page scores lower on a slower or busier host). Beside the scores
// it writes where each page's main thread went (Lighthouse's main-thread work by category and its script
// boot-up time per script, the parts that stay comparable under load) and every failed audit to
// `.warden/lighthouse.json`, and each page's last report to `.warden/lighthouse-reports/`. Needs a `next build`
// first. A measurement, not a test: it fails only when a page cannot be audited.
//
// A single run moves by 10 points when the host is busy, so two builds are compared side by side, not an
// hour apart: `--against <git ref>` builds that revision in a worktree under `.warden/lighthouse-against/`
// (node_modules hard-linked from this checkout; reused while the revision's build is there), serves it on the
// next port, and audits each page on both builds in turn, alternating which goes first. `--runs N` audits every
// page N times, round by round, and prints the median. The revision runs against this checkout's database and
// seed, so it must share its schema.
//
// The mobile profile's 4x CPU slowdown stands for a mid-range phone only on a host of Lighthouse's reference
// speed; a faster host scores higher for the same page. `--calibrate` sets the slowdown from the host's own
// index instead (calibratedSlowdown): a first, discarded audit measures it, and every audit after uses the
// median index measured so far.
//
// Headless Chromium sometimes holds a page's first paint back for about a second after the page has it ready
// (held-paint.ts); each audit reads that from its trace and says so beside its scores, and the medians give how
// many runs were held and the median of the others, since a held run's score measures the browser.
//
// `--reference` audits, once a round beside the dashboard's pages, a page of the same Next.js and React with one
// client component and nothing else (scripts/lighthouse/reference-app): what the framework's own start-up
// scores on this host at this moment, the ceiling the dashboard's pages are read against.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadLighthouseConfig } from './config';
import { OPERATOR } from '../../test-support/credentials';
import { signInCookie, startBuiltDashboard, type BuiltDashboard } from '../lib/built-dashboard';
import { parseCommandLine, runCommandLine, UsageError } from '../lib/command-line';
import { median } from '../bench/stats';
import { run } from '../lib/processes';
import { calibratedSlowdown, MOBILE_CPU_SLOWDOWN } from './calibrate';
import { heldFirstPaint, TRACE_CATEGORIES, type TraceEvent } from './held-paint';
import { seedDashboard, SEEDED_GROUP } from './seed-dashboard';
import { LIGHTHOUSE_DLQ_TOPIC, seedDeadLetters } from './seed-dead-letters';
import { startOwnBroker } from '../lib/own-services';
import { DEBIAN_CHROMIUM } from '../lib/chromium';

const ROOT = path.resolve(__dirname, '../..');
const NOT_FOUND_PAGE = '/no-such-page';
const SIGN_IN_PAGE = '/sign-in';
const PAGES = [
  '/',
  `/groups/${SEEDED_GROUP}`,
  '/quarantine',
  '/dead-letters',
  '/rebalances',
  '/alerts',
  '/audit',
  NOT_FOUND_PAGE,
  SIGN_IN_PAGE,
];
const USAGE = `usage: npm run lighthouse [-- [--skip-seed] [--only <path>]... [--runs N] [--against <git ref>] [--calibrate] [--reference]]
  --skip-seed         audit the database as it is
  --only <path>       audit this page only (repeatable); default: ${PAGES.join(' ')}
  --runs N            audit each page N times and print the medians (default 1)
  --against <ref>     also audit the build of that git revision, alternating with this one
  --calibrate         slow the CPU for this host's measured speed instead of the fixed 4x
  --reference         also audit a minimal page of the same Next.js and React (scripts/lighthouse/reference-app)
                      each round: what the framework alone scores on this host now`;

interface Scores {
  page: string;
  /** `this checkout`, or the revision given to --against. */
  build: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  tbtMs: number;
  /**
   * Lighthouse's measure of the host's CPU at the time of the run. The 4x CPU slowdown of the mobile profile
   * stands for a mid-range phone on a host of about 1,533 (calibrate.ts); a busy or slow host scores lower and
   * a fast one higher without the page changing, so a score is read beside it.
   */
  benchmarkIndex: number;
  /** The CPU slowdown the run simulated: the mobile profile's 4x, or the calibrated one. */
  cpuSlowdown: number;
  /** Lighthouse's `mainthread-work-breakdown`: milliseconds per kind of work (script evaluation, style, ...). */
  mainThreadMs: Record<string, number>;
  /** Lighthouse's `bootup-time`: per script, the milliseconds spent evaluating and parsing it. */
  scripts: { url: string; totalMs: number; scriptingMs: number; parseMs: number }[];
  /**
   * Milliseconds the measuring browser held the page's first paint back after the page had it ready (held-paint.ts),
   * or null when it did not: a held run's paint metrics, and so its score, measure the browser, not the page.
   */
  firstPaintHeldMs: number | null;
  /** Audits of the three categories that scored below 0.9, with Lighthouse's display value. */
  failedAudits: { id: string; score: number; displayValue?: string }[];
}

interface TableDetails {
  items?: Record<string, unknown>[];
}

function tableItems(audit: { details?: unknown } | undefined): Record<string, unknown>[] {
  return (audit?.details as TableDetails | undefined)?.items ?? [];
}

async function audit(
  baseUrl: string,
  page: string,
  cookie: string,
  cpuSlowdown = MOBILE_CPU_SLOWDOWN,
): Promise<Omit<Scores, 'build'>> {
  // Both are ES modules only; imported where used so this script stays CommonJS like the others.
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const chrome = await chromeLauncher.launch({
    chromePath: DEBIAN_CHROMIUM,
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
        // The sign-in page is measured as its visitors meet it: signed out.
        extraHeaders: page === SIGN_IN_PAGE ? {} : { Cookie: cookie },
        // Lighthouse refuses a document answered with a 4xx unless told it is meant; only the 404 page is.
        ignoreStatusCode: page === NOT_FOUND_PAGE,
        // Merged into the mobile profile's simulated throttling: only the CPU's factor changes.
        throttling: { cpuSlowdownMultiplier: cpuSlowdown },
      },
      // The default audits, with viz's frame decisions in the trace: they tell whether the first paint was held.
      { extends: 'lighthouse:default', settings: { additionalTraceCategories: TRACE_CATEGORIES } },
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
    // The load's observed start and first contentful paint, in the trace's microseconds.
    const observed = tableItems(audits.metrics)[0] ?? {};
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
      cpuSlowdown,
      mainThreadMs,
      scripts,
      firstPaintHeldMs:
        heldFirstPaint(result.artifacts.Trace.traceEvents as TraceEvent[], {
          timeOriginTs: Number(observed.observedTimeOriginTs),
          firstContentfulPaintTs:
            observed.observedFirstContentfulPaintTs === undefined
              ? undefined
              : Number(observed.observedFirstContentfulPaintTs),
        })?.heldMs ?? null,
      failedAudits,
    };
  } finally {
    chrome.kill();
  }
}

/** The worktree of `ref` under .warden/lighthouse-against/, built with `next build` unless already built. */
async function buildRevision(ref: string): Promise<string> {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  let commit: string;
  try {
    commit = git('rev-parse', '--verify', `${ref}^{commit}`);
  } catch {
    throw new UsageError(`--against: "${ref}" is not a revision of this repository`);
  }
  const checkout = path.join(ROOT, '.warden', 'lighthouse-against', commit);
  const builtMarker = path.join(checkout, '.next', 'BUILD_ID');
  if (existsSync(builtMarker)) return checkout;
  if (!existsSync(checkout)) {
    git('worktree', 'add', '--detach', checkout, commit);
    linkNodeModules(checkout);
  }
  await runIn(checkout, 'npx', ['prisma', 'generate']);
  await runIn(checkout, 'npx', ['next', 'build']);
  return checkout;
}

/** This checkout's node_modules in `checkout`, as hard links: the bundler refuses one that resolves outside it. */
function linkNodeModules(checkout: string): void {
  execFileSync('cp', ['-al', path.join(ROOT, 'node_modules'), path.join(checkout, 'node_modules')]);
}

/** Runs a build step in `checkout`, its output hidden but for errors; a failed step throws, naming it. */
async function runIn(checkout: string, command: string, args: string[]): Promise<void> {
  const code = await run(command, args, { cwd: checkout, stdio: ['ignore', 'ignore', 'inherit'] });
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} in ${checkout} exited ${code}`);
}

function printRun(row: Scores, details: boolean): void {
  const build = row.build === THIS_CHECKOUT ? '' : ` [${row.build}]`;
  const held = row.firstPaintHeldMs === null ? '' : `  first paint held ${row.firstPaintHeldMs} ms by the browser`;
  console.log(
    `${row.page.padEnd(28)} performance ${row.performance}  accessibility ${row.accessibility}  best practices ${row.bestPractices}  LCP ${row.lcpMs} ms  TBT ${row.tbtMs} ms  host CPU index ${row.benchmarkIndex}  CPU slowdown ${row.cpuSlowdown}x${held}${build}`,
  );
  if (!details) return;
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

/** Medians per page and build, in the order they were first audited. */
function printMedians(rows: Scores[], runs: number): void {
  console.log(`medians of ${runs} runs per page and build:`);
  const pairs = new Map(rows.map((r) => [`${r.page}\u0000${r.build}`, { page: r.page, build: r.build }]));
  for (const { page, build } of pairs.values()) {
    const audited = rows.filter((r) => r.page === page && r.build === build);
    const performance = audited.map((r) => r.performance);
    const notHeld = audited.filter((r) => r.firstPaintHeldMs === null).map((r) => r.performance);
    const held =
      notHeld.length === audited.length
        ? ''
        : `  first paint held in ${audited.length - notHeld.length} of ${audited.length}${notHeld.length > 0 ? `, the others' median ${Math.round(median(notHeld)!)}` : ''}`;
    console.log(
      `${page.padEnd(28)} performance ${Math.round(median(performance)!)} (${Math.min(...performance)}-${Math.max(...performance)})  TBT ${Math.round(median(audited.map((r) => r.tbtMs))!)} ms  LCP ${Math.round(median(audited.map((r) => r.lcpMs))!)} ms  host CPU index ${Math.round(median(audited.map((r) => r.benchmarkIndex))!)}  CPU slowdown ${median(audited.map((r) => r.cpuSlowdown))}x${held}  ${build}`,
    );
  }
}

const THIS_CHECKOUT = 'this checkout';
const REFERENCE = 'reference: minimal Next.js page';
const REFERENCE_APP = path.join(__dirname, 'reference-app');

/**
 * scripts/lighthouse/reference-app built under .warden/lighthouse-reference (node_modules hard-linked, as for
 * --against): a page of the dashboard's Next.js and React with one client component and nothing else.
 */
async function buildReference(): Promise<string> {
  const checkout = path.join(ROOT, '.warden', 'lighthouse-reference');
  rmSync(checkout, { recursive: true, force: true });
  cpSync(REFERENCE_APP, checkout, { recursive: true });
  linkNodeModules(checkout);
  await runIn(checkout, 'npx', ['next', 'build']);
  return checkout;
}

async function main(argv: string[]): Promise<number | 'help'> {
  const { values } = parseCommandLine(argv, {
    'skip-seed': { type: 'boolean', default: false },
    only: { type: 'string', multiple: true },
    runs: { type: 'string', default: '1' },
    against: { type: 'string' },
    calibrate: { type: 'boolean', default: false },
    reference: { type: 'boolean', default: false },
  });
  if (values.help) return 'help';
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1)
    throw new UsageError(`--runs takes a whole number of at least 1, got "${values.runs}"`);
  const pages = values.only ?? PAGES;
  // chrome-launcher reports a missing browser as an unhandled error event, which ends this process before the
  // servers started below are stopped: they would be left running on their ports.
  if (!existsSync(DEBIAN_CHROMIUM)) throw new Error(`no browser at ${DEBIAN_CHROMIUM}: apt-get install chromium`);
  const config = loadLighthouseConfig();
  const against = values.against === undefined ? undefined : await buildRevision(values.against);
  const port = config.WARDEN_TEST_PORT_BASE + 200;
  const reference = values.reference
    ? startBuiltDashboard(port + 2, config.DATABASE_URL, await buildReference(), { readyPath: '/' })
    : undefined;
  // The Dead letters page reads its topic from a broker of this measurement's own (base + 292).
  const broker = await startOwnBroker(config, port, 'kafka-lighthouse');
  const servers: { build: string; server: BuiltDashboard }[] = [];
  try {
    if (!values['skip-seed']) {
      await seedDashboard(config.DATABASE_URL, (line) => console.log(line));
      await seedDeadLetters(broker.brokers, (line) => console.log(line));
    }
    const env = { KAFKA_BROKERS: broker.brokers.join(','), WARDEN_DLQ_TOPIC: LIGHTHOUSE_DLQ_TOPIC };
    servers.push({ build: THIS_CHECKOUT, server: startBuiltDashboard(port, config.DATABASE_URL, ROOT, { env }) });
    if (against !== undefined) {
      servers.push({
        build: values.against!,
        server: startBuiltDashboard(port + 1, config.DATABASE_URL, against, { env }),
      });
    }
    if (reference !== undefined) servers.push({ build: REFERENCE, server: reference });
    await Promise.all(servers.map(({ server }) => server.ready()));
    const cookie = await signInCookie(servers[0]!.server.baseUrl, OPERATOR);
    const rows: Scores[] = [];
    const details = runs === 1 && servers.length === 1;
    const indices: number[] = [];
    if (values.calibrate) {
      const probe = await audit(servers[0]!.server.baseUrl, pages[0]!, cookie);
      indices.push(probe.benchmarkIndex);
      console.log(`calibrating: host CPU index ${probe.benchmarkIndex} (this audit is not counted)`);
    }
    const slowdown = () => (values.calibrate ? calibratedSlowdown(median(indices)!) : MOBILE_CPU_SLOWDOWN);
    const dashboards = servers.filter((s) => s.build !== REFERENCE);
    const auditOnce = async (build: string, baseUrl: string, page: string) => {
      const row = { ...(await audit(baseUrl, page, cookie, slowdown())), build };
      indices.push(row.benchmarkIndex);
      rows.push(row);
      printRun(row, details);
    };
    for (let round = 0; round < runs; round += 1) {
      for (const [index, page] of pages.entries()) {
        // Alternating which build goes first spreads a slow moment of the host over both.
        const order = (round + index) % 2 === 0 ? dashboards : [...dashboards].reverse();
        for (const { build, server } of order) await auditOnce(build, server.baseUrl, page);
      }
      if (reference !== undefined) await auditOnce(REFERENCE, reference.baseUrl, '/');
    }
    if (runs > 1 || servers.length > 1) printMedians(rows, runs);
    const out = path.join(ROOT, '.warden', 'lighthouse.json');
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify(rows, null, 2));
    console.log(`scores written to ${out}`);
    return 0;
  } finally {
    for (const { server } of servers) server.stop();
    await broker.stop();
  }
}

runCommandLine('lighthouse', USAGE, main);
