import pg from 'pg';
import { createDatabase } from '../../lib/db';
import { rollUpLagSamples } from '../../worker/sampler/retention';
import { migrateDatabase } from '../lib/database';
import { API_SEED } from './plan';

// The history (11a) and (11b) read: 7 days of 5-second samples for 50 partitions (API_SEED), in a database
// of its own (`<DATABASE_URL's name>_bench_api`), written straight into the tables the sampler writes:
// lag_sample rows by generate_series, in time order as the sampler appends them, with offsets, time lag (exact
// every third round, as the 15 s exact-read cadence gives), rates and owners; then the 1-minute lag_rollup and
// 10-minute lag_rollup_10m rows by the sampler's own rollup (worker/sampler/retention.ts); plus what the group
// page reads besides: the consumer core's commit-prefix rows, a quarantine and a rebalance every 40 minutes.
// A seed of the right shape is
// reused by later runs (its time does not matter: the group page reads the newest round, and the series is
// asked for the 24 hours ending at it); anything else is emptied and seeded again.

export const API_GROUP = 'warden-bench.api.group';
const API_TOPIC = 'warden-bench.api.orders';
/** The tables this seed writes (and empties before seeding). */
export const SEEDED_TABLES = [
  'lag_sample',
  'lag_rollup',
  'lag_rollup_10m',
  'consumer_partition_state',
  'partition_quarantine',
  'rebalance_event',
  'log_end_point',
];

export interface ApiSeed {
  databaseUrl: string;
  groupId: string;
  /** Time of the newest seeded round. */
  endMs: number;
  lagSampleRows: number;
  rollupRows: number;
  tenMinuteRollupRows: number;
  reused: boolean;
  seedMs: number;
}

export function apiBenchDatabaseUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `${url.pathname}_bench_api`;
  return url.toString();
}

const ROUNDS = (API_SEED.days * 86_400_000) / API_SEED.intervalMs;

/** One group's seeded history: `days` of samples every `intervalMs` for `partitions` partitions, ending at `endMs`. */
export interface SeedHistory {
  groupId: string;
  topic: string;
  endMs: number;
  days: number;
  intervalMs: number;
  partitions: number;
}

/** Creates, migrates and (when its seed is missing or of another shape) seeds the API bench database. */
export async function prepareApiSeed(baseDatabaseUrl: string, log: (line: string) => void): Promise<ApiSeed> {
  const databaseUrl = apiBenchDatabaseUrl(baseDatabaseUrl);
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  if (!name.endsWith('_bench_api')) throw new Error(`refusing to seed "${name}": not the API bench database`);
  await migrateDatabase(databaseUrl);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = performance.now();
  try {
    const existing = await shape(client);
    if (
      existing.samples === ROUNDS * API_SEED.partitions &&
      existing.rollups >= (ROUNDS * API_SEED.partitions) / 12 &&
      existing.endMs !== null
    ) {
      return {
        databaseUrl,
        groupId: API_GROUP,
        endMs: existing.endMs,
        lagSampleRows: existing.samples,
        rollupRows: existing.rollups,
        tenMinuteRollupRows: existing.tenMinuteRollups,
        reused: true,
        seedMs: 0,
      };
    }
    log(
      `(11) seeding ${name}: ${API_SEED.days} days of ${API_SEED.intervalMs / 1000}-second samples x ${API_SEED.partitions} partitions (a few minutes, once)`,
    );
    await client.query(`TRUNCATE ${SEEDED_TABLES.join(', ')}`);
    const endMs = Math.floor(Date.now() / API_SEED.intervalMs) * API_SEED.intervalMs;
    const history: SeedHistory = { groupId: API_GROUP, topic: API_TOPIC, endMs, ...API_SEED };
    await seedSamples(client, history, (day) => log(`(11) seeded day ${day}/${API_SEED.days}`));
    await seedSurroundings(client, history);
    log(`(11) rolling up ${API_SEED.days} days with the sampler's rollup`);
    const db = createDatabase(databaseUrl, 1);
    try {
      // "now" just after the newest minute, and a retention longer than the seed, so every minute is rolled up.
      await rollUpLagSamples(db, new Date(endMs + 60_000), API_SEED.days + 1);
    } finally {
      await db.$disconnect();
    }
    await client.query('VACUUM ANALYZE lag_sample');
    await client.query('VACUUM ANALYZE lag_rollup');
    await client.query('VACUUM ANALYZE lag_rollup_10m');
    const seeded = await shape(client);
    const seedMs = performance.now() - started;
    log(
      `(11) seeded ${seeded.samples.toLocaleString('en-US')} lag_sample and ${seeded.rollups.toLocaleString('en-US')} lag_rollup rows in ${(seedMs / 1000).toFixed(0)} s`,
    );
    return {
      databaseUrl,
      groupId: API_GROUP,
      endMs,
      lagSampleRows: seeded.samples,
      rollupRows: seeded.rollups,
      tenMinuteRollupRows: seeded.tenMinuteRollups,
      reused: false,
      seedMs,
    };
  } finally {
    await client.end();
  }
}

async function shape(
  client: pg.Client,
): Promise<{ samples: number; rollups: number; tenMinuteRollups: number; endMs: number | null }> {
  const samples = await client.query<{ count: string; newest: Date | null }>(
    'SELECT count(*) AS count, max(sampled_at) AS newest FROM lag_sample WHERE group_id = $1',
    [API_GROUP],
  );
  const rollups = await client.query<{ count: string }>(
    'SELECT count(*) AS count FROM lag_rollup WHERE group_id = $1',
    [API_GROUP],
  );
  const tens = await client.query<{ count: string }>(
    'SELECT count(*) AS count FROM lag_rollup_10m WHERE group_id = $1',
    [API_GROUP],
  );
  return {
    samples: Number(samples.rows[0]?.count ?? 0),
    rollups: Number(rollups.rows[0]?.count ?? 0),
    tenMinuteRollups: Number(tens.rows[0]?.count ?? 0),
    endMs: samples.rows[0]?.newest?.getTime() ?? null,
  };
}

/**
 * One statement per day, rounds oldest first and partitions in order within a round (the sampler's insert
 * order, so the table's physical order follows time as it does in production). Per partition p: arrivals at
 * 20 + p records/s, a lag that swings daily between about 50 and 950 records (phase-shifted per partition),
 * partition 7 ten times that; consumption keeps pace on average.
 */
export async function seedSamples(
  client: pg.Client,
  history: SeedHistory,
  onDay: (day: number) => void = () => {},
): Promise<void> {
  const rounds = Math.round((history.days * 86_400_000) / history.intervalMs);
  const perDay = 86_400_000 / history.intervalMs;
  const intervalSec = history.intervalMs / 1000;
  for (let day = 0; day * perDay < rounds; day++) {
    const first = day * perDay;
    const last = Math.min(rounds, first + perDay) - 1;
    await client.query(
      `INSERT INTO lag_sample (
         sampled_at, group_id, topic, partition, committed_offset, log_start_offset, log_end_offset, lag, group_state,
         member_client_id, member_host, group_protocol, time_lag_ms, time_lag_kind, exact_time_lag_ms,
         arrival_rate_per_sec, consumption_rate_per_sec)
       SELECT at, $1, $2, p, log_end - lag, 0, log_end, lag, 'Stable',
              'warden-' || (p % 6), '/10.0.0.' || (p % 6 + 1), 'RoundRobinAssigner',
              (lag * 1000 / rate)::bigint, CASE WHEN lag = 0 THEN 'caught-up' ELSE 'interpolated' END,
              CASE WHEN r % 3 = 0 THEN (lag * 1000 / rate)::bigint + 40 END,
              rate::float8, (rate - 0.5 * cos(2 * pi() * r * $4 / 86400.0 + p / 8.0))::float8
       FROM generate_series($5::int, $6::int) AS r
       CROSS JOIN LATERAL generate_series(0, $7::int - 1) AS p
       CROSS JOIN LATERAL (SELECT
         to_timestamp(($3::bigint - ($8::bigint - 1 - r) * $9::bigint) / 1000.0) AS at,
         (20 + p) AS rate,
         (1000000::bigint * p + r::bigint * $4 * (20 + p)) AS log_end,
         ((500 + 450 * sin(2 * pi() * r * $4 / 86400.0 + p / 8.0)) * CASE WHEN p = 7 THEN 10 ELSE 1 END)::bigint AS lag) AS v
       ORDER BY r, p`,
      [
        history.groupId,
        history.topic,
        history.endMs,
        intervalSec,
        first,
        last,
        history.partitions,
        rounds,
        history.intervalMs,
      ],
    );
    onDay(day + 1);
  }
}

/** Commit-prefix rows (a Warden consumer), one quarantine, and a rebalance every 40 minutes. */
export async function seedSurroundings(client: pg.Client, history: SeedHistory): Promise<void> {
  const { groupId, topic, endMs, partitions } = history;
  const end = new Date(endMs);
  await client.query(
    `INSERT INTO consumer_partition_state (group_id, topic, partition, instance_id, sampled_at, watermark, highest_completed,
       in_flight, completed_uncommitted, buffered, buffered_bytes, oldest_unfinished_offset, oldest_unfinished_age_ms, paused)
     SELECT $1, $2, p, 'warden-' || (p % 6) || '@host/1', $3, 1000000::bigint * p + 5000, 1000000::bigint * p + 5040, 16, 30, 200, 40000,
            1000000::bigint * p + 5001, 1200, p = 7
     FROM generate_series(0, $4::int - 1) AS p`,
    [groupId, topic, end, partitions],
  );
  await client.query(
    `INSERT INTO partition_quarantine (group_id, topic, partition, "offset", reason, error_class, since, attempts, record_key, record_preview, record_headers, record_timestamp)
     VALUES ($1, $2, 7, 7005001, 'result key missing', 'missing-result-key', $3, 0, 'k-7', '{"eventId":"e-7"}', '{}'::jsonb, $3)`,
    [groupId, topic, new Date(endMs - 3_600_000)],
  );
  // Member 0 restarts in every rebalance, the other five in every second one (a rolling restart): the history
  // has rebalances where one member left and joined while five stayed, and ones where all six were replaced.
  const members = (generation: number) =>
    JSON.stringify(
      Array.from({ length: 6 }, (_, m) => ({
        memberId: `warden-${m}-${m === 0 ? generation : Math.floor(generation / 2)}`,
        clientId: `warden-${m}`,
        clientHost: `/10.0.0.${m + 1}`,
        assignment: {
          [topic]: Array.from({ length: partitions }, (_, p) => p).filter((p) => p % 6 === m),
        },
      })),
    );
  const every = 40 * 60_000;
  const rows = Math.floor((history.days * 86_400_000) / every);
  for (let i = 0; i < rows; i++) {
    const startedAt = new Date(endMs - (rows - i) * every);
    await client.query(
      `INSERT INTO rebalance_event (group_id, source, started_at, ended_at, duration_ms, duration_is_bound, members_before, members_after, partitions_moved, trigger)
       VALUES ($1, 'describe-groups', $2, $3, 5000, true, $4::jsonb, $5::jsonb, 9, 'leave')`,
      [groupId, startedAt, new Date(startedAt.getTime() + 5_000), members(i), members(i + 1)],
    );
  }
}
