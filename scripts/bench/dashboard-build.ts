import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { childProcessEnv } from '../../lib/config/program-config';
import { run } from '../lib/processes';

// (11o) measures the production build (`next start`). A build older than any source it is made of would
// measure other code, so it is rebuilt when missing or older than the newest file under SOURCES.

const ROOT = path.resolve(__dirname, '../..');
const SOURCES = ['app', 'components', 'lib', 'next.config.ts', 'package-lock.json'];

function newestMtimeMs(entry: string): number {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(entry)) newest = Math.max(newest, newestMtimeMs(path.join(entry, name)));
  return newest;
}

/** Runs `next build` unless `.next` holds a build newer than every source; says which it did. */
export async function ensureDashboardBuild(log: (line: string) => void): Promise<void> {
  const buildId = path.join(ROOT, '.next', 'BUILD_ID');
  const sources = SOURCES.map((s) => path.join(ROOT, s)).filter((s) => existsSync(s));
  const newestSource = Math.max(...sources.map(newestMtimeMs));
  if (existsSync(buildId) && statSync(buildId).mtimeMs > newestSource) {
    log('(11o) using the existing dashboard build (.next is newer than its sources)');
    return;
  }
  log('(11o) building the dashboard (next build, a few minutes)');
  const code = await run('npx', ['next', 'build'], { cwd: ROOT, env: childProcessEnv(), stdio: 'ignore' });
  if (code !== 0) throw new Error(`next build failed (exit ${code}); run it alone to see why`);
}
