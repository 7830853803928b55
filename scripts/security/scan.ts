// npm run security:scan - scans the built dashboard as a reviewer would, on loopback only:
//   1. a fresh `<database>_scan_test` database with two minutes of samples of one group;
//   2. `next build` (skip with --no-build) and `next start` on 127.0.0.1:<WARDEN_TEST_PORT_BASE + 300>, with a
//      throwaway operator whose random password exists only in this process;
//   3. signs the operator in and runs Debian's wapiti with that session cookie, then sqlmap on every endpoint
//      that takes a query string or a JSON body (scan-plan.ts says which, with which arguments);
//   4. signs the session out, checks the server's log for the password and the cookie, writes everything under
//      .warden/security/ (wapiti.json, sqlmap/, server.log, summary.md) and prints the summary.
// Exits 1 when a finding of medium or higher, an injectable parameter or a leaked secret shows up.
//   npm run security:scan [-- --no-build] [-- --max-scan-sec 300]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { childProcessEnv } from '../../lib/config/program-config';
import { loadSecurityScanConfig } from './config';
import { parseCommandLine, runCommandLine, UsageError } from '../lib/command-line';
import { eventually } from '../../test-support/eventually';
import { ProcessGroup, run } from '../lib/processes';
import { resetTestDatabase } from '../lib/test-database';
import {
  isMediumOrHigher,
  readSqlmapOutput,
  readWapitiReport,
  sqlmapRuns,
  summaryLines,
  wapitiArgs,
  type Finding,
  type ScanTarget,
} from './scan-plan';

const ROOT = path.resolve(__dirname, '..', '..');
const OUT = path.join(ROOT, '.warden', 'security');
const SQLMAP_RUN_LIMIT_MS = 180_000;

const USAGE = `usage: npm run security:scan [-- --no-build] [-- --max-scan-sec=300]
  --no-build          reuse the last next build
  --max-scan-sec=N    wapiti's time budget in seconds (default 420)`;

async function seedGroup(databaseUrl: string, groupId: string): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const now = Date.now();
    for (let back = 24; back >= 0; back--) {
      for (let partition = 0; partition < 2; partition++) {
        const logEnd = 100_000 - back * 500;
        const committed = 90_000 - back * 400;
        await db.query(
          `INSERT INTO lag_sample (sampled_at, group_id, topic, partition, committed_offset, log_start_offset,
             log_end_offset, lag, group_state) VALUES ($1, $2, 'scan-topic', $3, $4, 0, $5, $6, 'Empty')`,
          [new Date(now - back * 5_000), groupId, partition, committed, logEnd, logEnd - committed],
        );
      }
    }
  } finally {
    await db.end();
  }
}

/** Runs a command with its output captured (and copied to `logFile`); resolves with the output. */
function capture(command: string, args: string[], logFile: string, limitMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const log = createWriteStream(logFile);
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      log.write(chunk);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => {
      output += `\n[stopped after ${limitMs} ms]\n`;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, limitMs);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      log.end();
      resolve(output);
    });
  });
}

async function main(argv: string[]): Promise<number | 'help'> {
  const { values } = parseCommandLine(argv, {
    'no-build': { type: 'boolean', default: false },
    'max-scan-sec': { type: 'string', default: '420' },
  });
  if (values.help) return 'help';
  const maxScanSec = Number(values['max-scan-sec']);
  if (!Number.isFinite(maxScanSec) || maxScanSec <= 0) {
    throw new UsageError(`--max-scan-sec must be a positive number of seconds, got "${values['max-scan-sec']}"`);
  }
  const config = loadSecurityScanConfig();
  const port = config.WARDEN_TEST_PORT_BASE + 300;
  const baseUrl = `http://127.0.0.1:${port}`;
  const databaseUrl = new URL(config.DATABASE_URL);
  databaseUrl.pathname = `${databaseUrl.pathname}_scan_test`;
  const operator = { name: 'scan-operator', password: randomBytes(18).toString('base64url') };
  const groupId = 'scan-group';

  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(path.join(OUT, 'sqlmap'), { recursive: true });
  await resetTestDatabase(databaseUrl.toString());
  await seedGroup(databaseUrl.toString(), groupId);

  const env = childProcessEnv({
    DATABASE_URL: databaseUrl.toString(),
    WARDEN_USERS: `${operator.name}:operator:${operator.password}`,
    WARDEN_API_TOKENS: '',
    WARDEN_SESSION_SECRET: randomBytes(32).toString('base64url'),
    NODE_ENV: 'production',
    // A loopback port nothing listens on: the scan must never reach a real cluster (an offset reset would).
    KAFKA_BROKERS: `127.0.0.1:${config.WARDEN_TEST_PORT_BASE + 301}`,
  });
  if (!values['no-build']) {
    const built = await run('npx', ['next', 'build'], { cwd: ROOT, env });
    if (built !== 0) throw new Error('next build failed');
  }
  const processes = new ProcessGroup();
  const serverLog = path.join(OUT, 'server.log');
  const logStream = createWriteStream(serverLog);
  const server = processes.start(
    'dashboard',
    'npx',
    ['next', 'start', '--hostname', '127.0.0.1', '--port', String(port)],
    {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  server.stdout?.pipe(logStream);
  server.stderr?.pipe(logStream);
  try {
    await eventually('the dashboard', async () => ((await fetch(`${baseUrl}/sign-in`)).ok ? true : undefined), 90_000);
    const signedIn = await fetch(`${baseUrl}/api/auth/sign-in`, {
      method: 'POST',
      headers: { origin: baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify({ name: operator.name, password: operator.password }),
    });
    const setCookie = signedIn.headers.get('set-cookie') ?? '';
    const cookie = /warden_session=[^;]+/.exec(setCookie)?.[0];
    if (!signedIn.ok || !cookie) throw new Error(`sign-in for the scan failed: ${signedIn.status}`);
    const target: ScanTarget = { baseUrl, cookie, groupId };

    console.log(`security:scan: wapiti against ${baseUrl} (at most ${maxScanSec} s)`);
    const reportPath = path.join(OUT, 'wapiti.json');
    await capture(
      'wapiti',
      wapitiArgs(target, {
        reportPath,
        sessionDir: path.join(OUT, 'wapiti-session'),
        maxScanSec,
        maxAttackSec: Math.max(20, Math.round(maxScanSec / 8)),
      }),
      path.join(OUT, 'wapiti.log'),
      (maxScanSec + 300) * 1000,
    );
    const findings: Finding[] = readWapitiReport(readFileSync(reportPath, 'utf8'));
    const stillSignedIn = (await fetch(`${baseUrl}/api/auth/session`, { headers: { cookie } })).ok;

    const sqlmap: { name: string; verdict: ReturnType<typeof readSqlmapOutput> }[] = [];
    for (const [index, runSpec] of sqlmapRuns(target, { outputDir: path.join(OUT, 'sqlmap') }).entries()) {
      console.log(`security:scan: sqlmap ${runSpec.name}`);
      const output = await capture(
        'sqlmap',
        runSpec.args,
        path.join(OUT, 'sqlmap', `run-${index + 1}.log`),
        SQLMAP_RUN_LIMIT_MS,
      );
      sqlmap.push({ name: runSpec.name, verdict: readSqlmapOutput(output) });
    }

    // The scan's session ends here, so the cookie in wapiti's report (its requests) opens nothing.
    await fetch(`${baseUrl}/api/auth/sign-out`, { method: 'POST', headers: { origin: baseUrl, cookie } });
    await processes.stop(server);
    logStream.end();
    const log = readFileSync(serverLog, 'utf8');
    const leaks = [
      ...(log.includes(operator.password) ? ['the password'] : []),
      ...(log.includes(cookie.split('=')[1]!) ? ['the session cookie'] : []),
    ];

    const lines = [
      `# Security scan of ${baseUrl} (${new Date().toISOString()})`,
      '',
      ...summaryLines(findings, sqlmap),
      '',
      stillSignedIn
        ? 'The operator session was still valid after wapiti: every request of the scan was signed in.'
        : 'WARNING: the operator session had ended by the end of wapiti; later requests were not signed in.',
      leaks.length === 0
        ? 'Server log: neither the password nor the session cookie appears in it.'
        : `Server log: LEAKS ${leaks.join(' and ')}.`,
    ];
    writeFileSync(path.join(OUT, 'summary.md'), `${lines.join('\n')}\n`);
    console.log(lines.join('\n'));
    console.log(`\nsecurity:scan: reports under ${path.relative(ROOT, OUT)}/`);
    const failed =
      findings.some(isMediumOrHigher) || sqlmap.some((s) => s.verdict === 'injectable') || leaks.length > 0;
    return failed ? 1 : 0;
  } finally {
    await processes.stopAll();
  }
}

runCommandLine('security:scan', USAGE, main);
