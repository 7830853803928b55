// Times how a dashboard page opens in Debian Chromium (Playwright, no throttling), signed in, over several
// fresh loads: first contentful paint, largest contentful paint and its element, when a chosen element became
// visible, and the main thread's long tasks (over 50 ms) until then. Lighthouse's simulated phone says how a
// page scores; this says what a browser on this machine does. Needs the dashboard running at the base URL
// (e.g. `npx next start` on the Lighthouse database, as npm run lighthouse starts it). `--mobile`: a 390 px
// viewport and the CPU slowed 4x, as Lighthouse's mobile profile simulates it; `--cpu-slowdown N` another factor
// (`npm run lighthouse -- --calibrate` prints the one this host needs).
//   tsx scripts/lighthouse/first-content.ts <base url> <page> [selector] [loads] [--mobile] [--cpu-slowdown N]
import { parseArgs } from 'node:util';
import { signedInBrowser } from './signed-in-browser';

interface Load {
  fcpMs: number;
  lcpMs: number;
  lcpElement: string;
  visibleMs: number;
  longTasks: number;
  longTaskMs: number;
}

/** Registered before any page script runs, so the buffered entries cover the whole load. */
const OBSERVE = `
  window.__wardenTiming = { lcp: 0, lcpElement: '', longTasks: [] };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      window.__wardenTiming.lcp = entry.startTime;
      const el = entry.element;
      window.__wardenTiming.lcpElement = el ? el.tagName.toLowerCase() + (el.dataset.testid ? '[data-testid=' + el.dataset.testid + ']' : '') + ' "' + (el.textContent || '').trim().slice(0, 40) + '"' : '(gone)';
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__wardenTiming.longTasks.push([entry.startTime, entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { mobile: { type: 'boolean', default: false }, 'cpu-slowdown': { type: 'string', default: '4' } },
  });
  const mobile = values.mobile;
  const slowdown = Number(values['cpu-slowdown']);
  const [baseUrl, page, selector = 'main h1', loads = '5'] = positionals;
  if (!baseUrl || !page) throw new Error('usage: first-content.ts <base url> <page> [selector] [loads] [--mobile]');
  if (!(slowdown >= 1)) throw new Error('--cpu-slowdown takes a factor of at least 1');
  const { browser, context } = await signedInBrowser(
    baseUrl,
    mobile ? { width: 390, height: 844 } : { width: 1440, height: 900 },
  );
  const results: Load[] = [];
  try {
    await context.addInitScript(OBSERVE);
    for (let load = 0; load <= Number(loads); load++) {
      const tab = await context.newPage();
      if (mobile) await (await context.newCDPSession(tab)).send('Emulation.setCPUThrottlingRate', { rate: slowdown });
      await tab.goto(`${baseUrl}${page}`, { waitUntil: 'commit' });
      await tab.locator(selector).first().waitFor({ state: 'visible', timeout: 30_000 });
      const visibleMs = await tab.evaluate(() => performance.now());
      // LCP settles once painting does; a second later nothing larger is coming.
      await tab.waitForTimeout(1_000);
      const timing = await tab.evaluate(() => {
        const t = (window as unknown as { __wardenTiming: { lcp: number; lcpElement: string; longTasks: number[][] } })
          .__wardenTiming;
        const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN;
        return { fcp, lcp: t.lcp, lcpElement: t.lcpElement, longTasks: t.longTasks };
      });
      await tab.close();
      // The first load warms the server's caches and the browser's: reported, not counted.
      if (load === 0) continue;
      const before = timing.longTasks.filter(([start]) => start! < visibleMs);
      results.push({
        fcpMs: timing.fcp,
        lcpMs: timing.lcp,
        lcpElement: timing.lcpElement,
        visibleMs,
        longTasks: before.length,
        longTaskMs: before.reduce((sum, [, duration]) => sum + duration!, 0),
      });
    }
  } finally {
    await browser.close();
  }
  for (const r of results) {
    console.log(
      `FCP ${Math.round(r.fcpMs)} ms  LCP ${Math.round(r.lcpMs)} ms (${r.lcpElement})  ${selector} visible ${Math.round(r.visibleMs)} ms  long tasks before it: ${r.longTasks} (${Math.round(r.longTaskMs)} ms)`,
    );
  }
  console.log(
    `${page} median of ${results.length}: FCP ${Math.round(median(results.map((r) => r.fcpMs)))} ms, LCP ${Math.round(median(results.map((r) => r.lcpMs)))} ms, ${selector} visible ${Math.round(median(results.map((r) => r.visibleMs)))} ms, long tasks before it ${Math.round(median(results.map((r) => r.longTaskMs)))} ms`,
  );
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);
