// Profiles one dashboard page's main thread in Debian Chromium (CDP Profiler), signed in, for a given time,
// and prints the functions with the most self time and the scripts they belong to. Needs the dashboard
// running (e.g. by npm run lighthouse's next start, or by hand) at the base URL given.
// With --cpu-slowdown N the page's CPU is throttled N times (Lighthouse's mobile profile simulates 4), so the
// profile weighs start-up work as the Lighthouse score does.
//   tsx scripts/lighthouse/profile-page.ts <base url> <page> [seconds] [--steady] [--cpu-slowdown N]
import { parseArgs } from 'node:util';
import { signedInBrowser } from './signed-in-browser';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { steady: { type: 'boolean', default: false }, 'cpu-slowdown': { type: 'string', default: '1' } },
  });
  const [baseUrl, page, seconds = '10'] = positionals;
  if (!baseUrl || !page)
    throw new Error('usage: profile-page.ts <base url> <page> [seconds] [--steady] [--cpu-slowdown N]');
  const rate = Number(values['cpu-slowdown']);
  if (!(rate >= 1)) throw new Error('--cpu-slowdown takes a factor of at least 1');
  const { browser, context } = await signedInBrowser(baseUrl);
  try {
    const tab = await context.newPage();
    const cdp = await context.newCDPSession(tab);
    if (rate > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    // With --steady the page loads and settles for 15 s first: the profile is then what polling and ticking cost.
    const steady = values.steady;
    if (steady) {
      await tab.goto(`${baseUrl}${page}`);
      await tab.waitForTimeout(15_000);
    }
    await cdp.send('Profiler.start');
    const started = Date.now();
    if (!steady) await tab.goto(`${baseUrl}${page}`);
    await tab.waitForTimeout(Number(seconds) * 1000);
    const { profile } = (await cdp.send('Profiler.stop')) as {
      profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
    };
    const wallMs = Date.now() - started;
    const selfUs = new Map<number, number>();
    profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
    const byFunction = new Map<string, number>();
    const byUrl = new Map<string, number>();
    for (const node of profile.nodes) {
      const us = selfUs.get(node.id) ?? 0;
      const { functionName, url, lineNumber, columnNumber } = node.callFrame;
      const file = url.split('/').pop() || '(native)';
      const key = `${functionName || '(anonymous)'} ${file}:${lineNumber}:${columnNumber}`;
      byFunction.set(key, (byFunction.get(key) ?? 0) + us);
      byUrl.set(file, (byUrl.get(file) ?? 0) + us);
    }
    const top = (m: Map<string, number>, n: number) =>
      [...m.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([k, us]) => `  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`);
    console.log(`${page}: ${wallMs} ms of wall time profiled`);
    console.log('self time by script:');
    console.log(top(byUrl, 10).join('\n'));
    console.log('self time by function:');
    console.log(top(byFunction, 40).join('\n'));
  } finally {
    await browser.close();
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);
