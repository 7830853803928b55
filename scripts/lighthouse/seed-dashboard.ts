import pg from 'pg';
import { createDatabase } from '../../lib/db';
import { loadDatabaseToolsConfig } from '../../lib/config/database-config';
import { rollUpLagSamples } from '../../worker/sampler/retention';
import { SEEDED_TABLES, seedSamples, seedSurroundings, type SeedHistory } from '../bench/api-seed';
import { migrateDatabase } from '../lib/database';

// Seeds a database for measuring the dashboard (npm run lighthouse) and for the dashboard's e2e checks: a
// Warden consumer group with two days of 5-second samples on 12 partitions (the demo's sample interval;
// partition 7 quarantined, a rebalance every 40 minutes) and a wide group of 1,000 partitions with ten minutes
// of samples, written by the bench's seeding SQL and rolled up by the sampler's own rollup. With `empty`, the
// sampler's tables are emptied first, which it refuses unless the database's name ends in `_ui` or
// `_lighthouse`; without it, only rows of the two groups are written (and `removeSeed` deletes them), which it
// refuses outside a `_test` database or those two.

export const SEEDED_GROUP = 'orders-pipeline';
export const WIDE_GROUP = 'clickstream-wide';
export interface SeedGroups {
  main: string;
  wide: string;
}
const TABLES = SEEDED_TABLES;

function checkDatabase(databaseUrl: string, empty: boolean): void {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const allowed = empty ? /_(ui|lighthouse)$/ : /_(ui|lighthouse|test)$/;
  if (!allowed.test(name)) throw new Error(`refusing to seed "${name}": its name must match ${allowed}`);
}

export async function seedDashboard(
  databaseUrl: string,
  log: (line: string) => void,
  { empty = true, groups = { main: SEEDED_GROUP, wide: WIDE_GROUP } }: { empty?: boolean; groups?: SeedGroups } = {},
): Promise<void> {
  checkDatabase(databaseUrl, empty);
  await migrateDatabase(databaseUrl);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    if (empty) await client.query(`TRUNCATE ${TABLES.join(', ')}`);
    const endMs = Math.floor(Date.now() / 5_000) * 5_000;
    const main: SeedHistory = {
      groupId: groups.main,
      topic: 'orders',
      endMs,
      days: 2,
      intervalMs: 5_000,
      partitions: 12,
    };
    await seedSamples(client, main, (day) => log(`seeded ${groups.main} day ${day}/${main.days}`));
    await seedSurroundings(client, main);
    const wide: SeedHistory = {
      groupId: groups.wide,
      topic: 'clicks',
      endMs,
      days: 10 / 1440,
      intervalMs: 5_000,
      partitions: 1_000,
    };
    await seedSamples(client, wide);
    log(`seeded ${groups.wide}: ${wide.partitions} partitions`);
  } finally {
    await client.end();
  }
  const db = createDatabase(databaseUrl, 1);
  try {
    await rollUpLagSamples(db, new Date(Date.now() + 60_000), 3);
    // Half a million rows written in one go, before autovacuum has looked at them, where a running deployment
    // writes them over two days and autovacuum visits them as they come. Without statistics the planner took
    // the group's newest round from the primary key (every sample of the group, 300 ms) instead of the
    // (group_id, sampled_at) index (0.3 ms). Without a vacuum no range of the sampled_at BRIN index is
    // summarized, and an unsummarized range matches every query: the group page's ten minutes of history read
    // all 530,000 rows (300 ms) instead of the window's blocks (14 ms). Either way the pages measured the seed,
    // not the dashboard.
    await db.$executeRawUnsafe(`VACUUM ANALYZE ${TABLES.join(', ')}`);
  } finally {
    await db.$disconnect();
  }
  log('rolled up and analyzed');
}

/** Postgres's SQLSTATE for a deadlock: the server aborted this transaction so the other could go on. */
const DEADLOCK_DETECTED = '40P01';
const REMOVE_ATTEMPTS = 5;

/**
 * Deletes every row `seedDashboard` wrote for `groups` (and any operator action on them), in one transaction.
 * A worker started just before may still be creating the day partitions (worker/sampler/sample-partitions.ts:
 * it moves the seeded rows of a day out of the default partition, then attaches the day under an exclusive
 * lock), and the two deadlock; when Postgres aborts this side, the whole removal is tried again, so nothing is
 * left half deleted.
 */
export async function removeSeed(databaseUrl: string, groups: SeedGroups): Promise<void> {
  checkDatabase(databaseUrl, false);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query('BEGIN');
        // Table names are constants; the groups are bound parameters.
        for (const table of [...TABLES.filter((t) => t !== 'log_end_point'), 'operator_action']) {
          await client.query(`DELETE FROM ${table} WHERE group_id = ANY($1)`, [[groups.main, groups.wide]]);
        }
        await client.query('COMMIT');
        return;
      } catch (error) {
        await client.query('ROLLBACK');
        if ((error as { code?: string }).code !== DEADLOCK_DETECTED || attempt === REMOVE_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  } finally {
    await client.end();
  }
}

/**
 * `tsx scripts/lighthouse/seed-dashboard.ts` empties and seeds DATABASE_URL's database; `--add <main> <wide>`
 * only adds those two groups and `--remove <main> <wide>` deletes them (the e2e suite's use: Playwright cannot
 * load the Prisma client the rollup needs, so it runs this as a child process).
 */
async function runCommandLine(argv: string[]): Promise<void> {
  const databaseUrl = loadDatabaseToolsConfig().DATABASE_URL;
  const [mode, main, wide] = argv;
  if (mode === undefined) return seedDashboard(databaseUrl, (line) => console.log(line));
  if ((mode !== '--add' && mode !== '--remove') || !main || !wide) {
    throw new Error('usage: seed-dashboard.ts [--add <main group> <wide group> | --remove <main group> <wide group>]');
  }
  const groups = { main, wide };
  if (mode === '--remove') return removeSeed(databaseUrl, groups);
  return seedDashboard(databaseUrl, () => {}, { empty: false, groups });
}

if (require.main === module) {
  runCommandLine(process.argv.slice(2)).then(
    () => process.exit(0),
    (error: Error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
}
