import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { childProcessEnv } from '../../../lib/config';
import { E2E_ACCESS_ENV, OPERATOR } from '../../../e2e/credentials';
import { eventually } from '../../lib/eventually';
import { epochNowMs, type ChildSpec, type Measurement } from '../protocol';
import { percentileOfSorted, summarizeLatency } from '../stats';
import { peakRssBytes } from './probe';

// (11c) and (11d): the built dashboard (`next start` of the `next build` in .next, which must exist) on the
// seeded fleet (fleet-seed.ts), over HTTP as a browser or a script reaches it, with a signed-in session.
// (11c) times GET /api/groups from the request to the last byte of the body, cycling through the overview's
// queries (default, sorted by total lag, one status, a text filter, a later page), after the first request
// (which computes every group's summary: reported apart) and WARM_UP untimed ones.
// (11d) loads the overview and the 1,000-partition group's page in Debian's Chromium (Playwright), each in a
// fresh page, and reads on the page's own clock when the first data row is in the document (first content)
// and the browser's first contentful paint; it also counts the partition rows in the document.

const ROOT = path.resolve(__dirname, '../../..');
const WARM_UP = 5;
const OVERVIEW_QUERIES = [
  '',
  '?sort=totalLag',
  '?status=OK',
  '?q=fleet.01',
  '?page=10',
  '?sort=group&order=reversed&page=3',
];

async function startDashboard(port: number, databaseUrl: string): Promise<{ server: ChildProcess; baseUrl: string }> {
  if (!existsSync(path.join(ROOT, '.next', 'BUILD_ID'))) {
    throw new Error('(11c)/(11d) measure the built dashboard: run `npm run build` first');
  }
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = spawn('npx', ['next', 'start', '--hostname', '127.0.0.1', '--port', String(port)], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
    env: childProcessEnv({ ...E2E_ACCESS_ENV, DATABASE_URL: databaseUrl }),
  });
  await eventually(
    `the dashboard on ${baseUrl}`,
    () =>
      fetch(`${baseUrl}/sign-in`).then(
        (r) => (r.ok ? true : undefined),
        () => undefined,
      ),
    120_000,
  );
  return { server, baseUrl };
}

function stopDashboard(server: ChildProcess): void {
  if (server.pid !== undefined) {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
}

async function signInCookie(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ name: OPERATOR.name, password: OPERATOR.password }),
  });
  if (!response.ok) throw new Error(`sign-in answered ${response.status}: ${await response.text()}`);
  const cookie = response.headers.get('set-cookie');
  if (!cookie) throw new Error('sign-in set no cookie');
  return cookie.split(';')[0]!;
}

const round1 = (ms: number | null) => (ms === null ? null : Math.round(ms * 10) / 10);

export async function runDashboard(spec: ChildSpec): Promise<Measurement> {
  const settings = spec.dashboard;
  if (!settings) throw new Error(`workload ${spec.workload}: the dashboard settings are missing`);
  const { server, baseUrl } = await startDashboard(settings.port, settings.databaseUrl);
  try {
    const cookie = await signInCookie(baseUrl);
    return settings.measure === 'overview-http'
      ? await overviewOverHttp(baseUrl, cookie, settings.iterations)
      : await firstContent(baseUrl, cookie, settings.iterations, settings.wideGroup);
  } finally {
    stopDashboard(server);
  }
}

async function overviewOverHttp(baseUrl: string, cookie: string, iterations: number): Promise<Measurement> {
  let bytes = 0;
  const get = async (query: string) => {
    const response = await fetch(`${baseUrl}/api/groups${query}`, { headers: { cookie } });
    const body = await response.arrayBuffer();
    if (!response.ok) throw new Error(`GET /api/groups${query} answered ${response.status}`);
    bytes = body.byteLength;
    return body;
  };
  const firstStarted = performance.now();
  const first = JSON.parse(new TextDecoder().decode(await get(''))) as { groupCount: number };
  const firstRequestMs = performance.now() - firstStarted;
  const listed = first.groupCount;
  for (let i = 0; i < WARM_UP; i++) await get(OVERVIEW_QUERIES[i % OVERVIEW_QUERIES.length]!);
  const baselineRssBytes = process.memoryUsage.rss();
  const times = new Float64Array(iterations);
  const startEpochMs = epochNowMs();
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    await get(OVERVIEW_QUERIES[i % OVERVIEW_QUERIES.length]!);
    times[i] = performance.now() - started;
  }
  const endEpochMs = epochNowMs();
  const sorted = Float64Array.from(times).sort();
  const p = (q: number) => round1(percentileOfSorted(sorted, q));
  return {
    records: iterations,
    startEpochMs,
    endEpochMs,
    latency: summarizeLatency(times),
    peakRssBytes: peakRssBytes(),
    baselineRssBytes,
    partitionDoneMs: [],
    details: {
      p50Ms: p(50),
      p95Ms: p(95),
      maxMs: p(100),
      firstRequestMs: Math.round(firstRequestMs),
      groupsListed: listed,
      responseBytes: bytes,
      queries: OVERVIEW_QUERIES.length,
    },
  };
}

async function firstContent(baseUrl: string, cookie: string, loads: number, wideGroup: string): Promise<Measurement> {
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-quic'],
  });
  const [name, value] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
  const pages = [
    { id: 'overview', path: '/', row: '[data-testid="group-row"]' },
    { id: 'wide', path: `/groups/${encodeURIComponent(wideGroup)}`, row: '[data-testid="partition-row"]' },
  ];
  const results: Record<string, { content: number[]; fcp: number[]; rows: number }> = {};
  const startEpochMs = epochNowMs();
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addCookies([{ name, value, url: baseUrl }]);
    // One untimed load of each page: the server's first render and the browser's cache of the bundles.
    for (const target of pages) {
      const page = await context.newPage();
      await page.goto(`${baseUrl}${target.path}`);
      await page.waitForSelector(target.row, { timeout: 120_000 });
      await page.close();
    }
    for (let i = 0; i < loads; i++) {
      for (const target of pages) {
        const page = await context.newPage();
        await page.goto(`${baseUrl}${target.path}`, { waitUntil: 'commit' });
        await page.waitForSelector(target.row, { timeout: 120_000 });
        const measured = await page.evaluate((row) => {
          const paint = performance.getEntriesByName('first-contentful-paint')[0];
          return {
            now: performance.now(),
            fcp: paint ? paint.startTime : null,
            rows: document.querySelectorAll(row).length,
          };
        }, target.row);
        const entry = (results[target.id] ??= { content: [], fcp: [], rows: 0 });
        entry.content.push(measured.now);
        if (measured.fcp !== null) entry.fcp.push(measured.fcp);
        entry.rows = measured.rows;
        await page.close();
      }
    }
  } finally {
    await browser.close();
  }
  const endEpochMs = epochNowMs();
  const median = (values: number[]) => round1(percentileOfSorted(Float64Array.from(values).sort(), 50));
  const worst = (values: number[]) => round1(percentileOfSorted(Float64Array.from(values).sort(), 100));
  const all = Object.values(results).flatMap((r) => r.content);
  return {
    records: all.length,
    startEpochMs,
    endEpochMs,
    latency: summarizeLatency(Float64Array.from(all)),
    peakRssBytes: peakRssBytes(),
    baselineRssBytes: process.memoryUsage.rss(),
    partitionDoneMs: [],
    details: {
      loads,
      overviewContentP50Ms: median(results.overview?.content ?? []),
      overviewContentMaxMs: worst(results.overview?.content ?? []),
      overviewFcpP50Ms: median(results.overview?.fcp ?? []),
      overviewRows: results.overview?.rows ?? 0,
      wideContentP50Ms: median(results.wide?.content ?? []),
      wideContentMaxMs: worst(results.wide?.content ?? []),
      wideFcpP50Ms: median(results.wide?.fcp ?? []),
      wideRowsInDocument: results.wide?.rows ?? 0,
    },
  };
}
