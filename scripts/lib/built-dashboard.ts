import { spawn } from 'node:child_process';
import path from 'node:path';
import { childProcessEnv } from '../../lib/config/program-config';
import { E2E_ACCESS_ENV } from '../../test-support/credentials';
import { eventually } from '../../test-support/eventually';

const ROOT = path.resolve(__dirname, '../..');

export interface BuiltDashboard {
  baseUrl: string;
  /** The `npx next start` process, leader of the process group the server runs in. */
  pid: number | undefined;
  /** Resolves once the sign-in page answers; throws after a minute without an answer. */
  ready(): Promise<void>;
  /** Ends the server and its children (it runs in a process group of its own); a server already gone is fine. */
  stop(): void;
}

/**
 * `next start` of the existing build (.next) on 127.0.0.1:`port` against `databaseUrl`, with the e2e suite's
 * users and tokens (test-support/credentials.ts), for scripts that measure the dashboard over HTTP. `checkout` is the
 * working tree whose build is served: this one unless a script compares against another revision (or another
 * Next.js app: the Lighthouse reference page); `env` adds settings (the brokers and the dead-letter topic, say);
 * `readyPath` is the page that answers once the server is up.
 */
export function startBuiltDashboard(
  port: number,
  databaseUrl: string,
  checkout: string = ROOT,
  { env = {}, readyPath = '/sign-in' }: { env?: Record<string, string>; readyPath?: string } = {},
): BuiltDashboard {
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = spawn('npx', ['next', 'start', '--hostname', '127.0.0.1', '--port', String(port)], {
    cwd: checkout,
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
    env: childProcessEnv({ ...E2E_ACCESS_ENV, ...env, DATABASE_URL: databaseUrl }),
  });
  return {
    baseUrl,
    pid: server.pid,
    ready: () =>
      eventually(
        `the dashboard on ${baseUrl}`,
        () =>
          fetch(`${baseUrl}${readyPath}`).then(
            (r) => (r.ok ? true : undefined),
            () => undefined,
          ),
        60_000,
      ).then(() => undefined),
    stop: () => {
      if (server.pid === undefined) return;
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    },
  };
}

/**
 * Signs `user` in to the dashboard at `baseUrl` and returns the session cookie (`name=value`) to send with
 * later requests. A refused sign-in or an answer without a cookie throws with the server's answer.
 */
export async function signInCookie(baseUrl: string, user: { name: string; password: string }): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ name: user.name, password: user.password }),
  });
  if (!response.ok) throw new Error(`sign-in answered ${response.status}: ${await response.text()}`);
  const cookie = response.headers.get('set-cookie');
  if (!cookie) throw new Error('sign-in set no cookie');
  return cookie.split(';')[0]!;
}
