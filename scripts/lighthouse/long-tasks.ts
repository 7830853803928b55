// The main thread's long tasks (over 50 ms, the browser's own longtask entries) in a window of time after a
// dashboard page starts loading, in Debian Chromium, signed in, over several fresh loads, with the CPU slowed as
// Lighthouse's mobile profile simulates it (4x unless --cpu-slowdown says otherwise). Per load: how many, the
// blocking time they sum (each task's time past 50 ms, as total blocking time counts it) and the longest.
// Lighthouse's simulation drops timers' waits, so work a page does seconds after it starts (its first poll, say)
// can land in the start-up it scores; this times such work where it really happens. Needs the dashboard running
// at the base URL (e.g. `npx next start` on the Lighthouse database, as npm run lighthouse starts it).
//   tsx scripts/lighthouse/long-tasks.ts <base url> <page> [--from-ms N] [--to-ms N] [--loads N] [--cpu-slowdown N]
import { parseCommandLine, runCommandLine, UsageError } from '../lib/command-line';
import { signedInBrowser } from './signed-in-browser';

const USAGE =
  'usage: tsx scripts/lighthouse/long-tasks.ts <base url> <page> [--from-ms N] [--to-ms N] [--loads N] [--cpu-slowdown N]';

/** Registered before any page script runs, so the buffered entries cover the whole load. */
const OBSERVE = `
  window.__wardenLongTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__wardenLongTasks.push([entry.startTime, entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
`;

async function main(argv: string[]): Promise<number | 'help'> {
  const { values, positionals } = parseCommandLine(
    argv,
    {
      'from-ms': { type: 'string', default: '0' },
      'to-ms': { type: 'string', default: '10000' },
      loads: { type: 'string', default: '5' },
      'cpu-slowdown': { type: 'string', default: '4' },
    },
    { allowPositionals: true },
  );
  if (values.help) return 'help';
  const [baseUrl, page, ...extra] = positionals;
  if (!baseUrl || !page) throw new UsageError('a base URL and a page are needed');
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  const [fromMs, toMs, loads, slowdown] = [
    values['from-ms'],
    values['to-ms'],
    values.loads,
    values['cpu-slowdown'],
  ].map(Number) as [number, number, number, number];
  if (!(fromMs >= 0 && toMs > fromMs)) throw new UsageError('--from-ms and --to-ms take 0 <= from < to');
  if (!(Number.isInteger(loads) && loads >= 1)) throw new UsageError('--loads takes a whole number of at least 1');
  if (!(slowdown >= 1)) throw new UsageError('--cpu-slowdown takes a factor of at least 1');
  const { browser, context } = await signedInBrowser(baseUrl, { width: 390, height: 844 });
  try {
    await context.addInitScript(OBSERVE);
    // The first load warms the server's caches and the browser's: run, not reported.
    for (let load = 0; load <= loads; load++) {
      const tab = await context.newPage();
      await (await context.newCDPSession(tab)).send('Emulation.setCPUThrottlingRate', { rate: slowdown });
      await tab.goto(`${baseUrl}${page}`, { waitUntil: 'commit' });
      await tab.waitForFunction((until) => performance.now() > until, toMs, { polling: 250, timeout: toMs + 30_000 });
      const tasks = await tab.evaluate(
        ([from, to]) =>
          (window as unknown as { __wardenLongTasks: Array<[number, number]> }).__wardenLongTasks.filter(
            ([start]) => start >= from! && start < to!,
          ),
        [fromMs, toMs],
      );
      await tab.close();
      if (load === 0) continue;
      const blocking = tasks.reduce((sum, [, duration]) => sum + duration - 50, 0);
      const longest = Math.max(0, ...tasks.map(([, duration]) => duration));
      console.log(
        `${page} load ${load}: ${tasks.length} long tasks from ${fromMs} to ${toMs} ms, ` +
          `blocking ${Math.round(blocking)} ms, longest ${Math.round(longest)} ms`,
      );
    }
  } finally {
    await browser.close();
  }
  return 0;
}

runCommandLine('long-tasks', USAGE, main);
