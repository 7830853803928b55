import pg from 'pg';
import { createDatabase } from '../../lib/db';
import { loadConfig } from '../../lib/config';
import { rollUpLagSamples } from '../../worker/sampler/retention';
import { seedSamples, seedSurroundings, type SeedHistory } from '../bench/api-seed';
import { migrateDatabase } from '../lib/database';

// Seeds DATABASE_URL's database for measuring the dashboard (npm run lighthouse) and looking at it: a Warden
// consumer group with two days of 5-second samples on 12 partitions (the demo's sample interval; partition 7
// quarantined, a rebalance every two hours) and a wide group of 1,000 partitions with ten minutes of samples,
// written by the bench's seeding SQL and rolled up by the sampler's own rollup. Refuses a database whose name
// does not end in `_ui` or `_lighthouse`, since it empties the sampler's tables first.

export const SEEDED_GROUP = 'orders-pipeline';
export const WIDE_GROUP = 'clickstream-wide';
const TABLES = [
  'lag_sample',
  'lag_rollup',
  'lag_rollup_10m',
  'consumer_partition_state',
  'partition_quarantine',
  'rebalance_event',
  'log_end_point',
];

export async function seedDashboard(databaseUrl: string, log: (line: string) => void): Promise<void> {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  if (!/_(ui|lighthouse)$/.test(name)) throw new Error(`refusing to seed "${name}": name it *_ui or *_lighthouse`);
  await migrateDatabase(databaseUrl);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`TRUNCATE ${TABLES.join(', ')}`);
    const endMs = Math.floor(Date.now() / 5_000) * 5_000;
    const main: SeedHistory = {
      groupId: SEEDED_GROUP,
      topic: 'orders',
      endMs,
      days: 2,
      intervalMs: 5_000,
      partitions: 12,
    };
    await seedSamples(client, main, (day) => log(`seeded ${SEEDED_GROUP} day ${day}/${main.days}`));
    await seedSurroundings(client, main);
    const wide: SeedHistory = {
      groupId: WIDE_GROUP,
      topic: 'clicks',
      endMs,
      days: 10 / 1440,
      intervalMs: 5_000,
      partitions: 1_000,
    };
    await seedSamples(client, wide);
    log(`seeded ${WIDE_GROUP}: ${wide.partitions} partitions`);
  } finally {
    await client.end();
  }
  const db = createDatabase(databaseUrl, 1);
  try {
    await rollUpLagSamples(db, new Date(Date.now() + 60_000), 3);
  } finally {
    await db.$disconnect();
  }
  log('rolled up');
}

if (require.main === module) {
  seedDashboard(loadConfig().DATABASE_URL, (line) => console.log(line)).then(
    () => process.exit(0),
    (error: Error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
}
