import { spawn } from 'node:child_process';
import pg from 'pg';
import { childProcessEnv } from '../../lib/config/program-config';

/** Creates the database named in `databaseUrl` when it is missing, connecting to `postgres` to do so. */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect().catch((error: Error) => {
    throw new Error(`Cannot reach Postgres at ${url.host} (${error.message}). Set DATABASE_URL or start Postgres.`);
  });
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } finally {
    await admin.end();
  }
}

/**
 * Runs the Prisma CLI with DATABASE_URL set; resolves with its exit code and output. When `doneWhen`
 * matches the output, the CLI has finished its work: Prisma's wasm schema engine then idles ~10 s on a
 * leftover timer before exiting, so the child is stopped and the run counts as exit 0.
 */
export function runPrisma(
  args: string[],
  databaseUrl: string,
  doneWhen?: RegExp,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [require.resolve('prisma/build/index.js'), ...args], {
      env: childProcessEnv({ DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: '1' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let finished = false;
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (!finished && doneWhen?.test(output)) {
        finished = true;
        child.kill('SIGTERM');
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: finished ? 0 : (code ?? 1), output }));
  });
}

/** Creates the database if needed and applies every pending migration; throws with the CLI output. */
export async function migrateDatabase(databaseUrl: string): Promise<void> {
  await ensureDatabase(databaseUrl);
  const { code, output } = await runPrisma(
    ['migrate', 'deploy'],
    databaseUrl,
    /All migrations have been successfully applied|No pending migrations to apply/,
  );
  if (code !== 0) throw new Error(`prisma migrate deploy failed (exit ${code}):\n${output}`);
}
