import pg from 'pg';
import { seedSamples } from './api-seed';

// What (11c) and (11d) read: a fleet of `groups` groups x `partitions` partitions with ten minutes of rounds
// ending now (every 30 s, as SAMPLE_IDLE_STORE_MS stores an idle fleet), and one group of 1,000 partitions
// with ten minutes of 5-second rounds, in the API bench database beside (11a)'s seeded group. Written straight
// into lag_sample by generate_series, after deleting the previous run's fleet: the overview lists only groups
// sampled in the last ten minutes, so the fleet is seeded fresh on every run. group_summary is emptied, so the
// first request computes every summary (reported apart). Per group g: arrivals 5 + g mod 20 records/s, a
// steady lag of (37 g + 11 p) mod 1000 per partition, except every 50th group, whose commits stopped (its lag
// grows every round).

export const FLEET_GROUP_PREFIX = 'warden-bench.fleet.';
export const FLEET_WIDE_GROUP = 'warden-bench.fleet-wide';
export const FLEET_WIDE_PARTITIONS = 1_000;
const FLEET_HISTORY_MS = 10 * 60_000;
const FLEET_ROUND_MS = 30_000;
const GROUPS_PER_STATEMENT = 200;

export interface FleetSeed {
  groups: number;
  partitions: number;
  lagSampleRows: number;
  seedMs: number;
}

export async function seedFleet(
  databaseUrl: string,
  groups: number,
  partitions: number,
  log: (line: string) => void,
): Promise<FleetSeed> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`DELETE FROM lag_sample WHERE group_id LIKE $1 OR group_id = $2`, [
      `${FLEET_GROUP_PREFIX}%`,
      FLEET_WIDE_GROUP,
    ]);
    await client.query('TRUNCATE group_summary');
    const endMs = Math.floor(Date.now() / FLEET_ROUND_MS) * FLEET_ROUND_MS;
    const rounds = FLEET_HISTORY_MS / FLEET_ROUND_MS;
    for (let first = 0; first < groups; first += GROUPS_PER_STATEMENT) {
      const last = Math.min(groups, first + GROUPS_PER_STATEMENT) - 1;
      await client.query(
        `INSERT INTO lag_sample (cluster, sampled_at, group_id, topic, partition, committed_offset, log_start_offset,
           log_end_offset, lag, group_state, member_client_id, member_host, group_protocol, time_lag_ms, time_lag_kind,
           arrival_rate_per_sec, consumption_rate_per_sec)
         SELECT 'default', to_timestamp(($1::bigint - ($2::int - 1 - r)::bigint * $3::bigint) / 1000.0),
                $4 || lpad(g::text, 4, '0'), $4 || 'topic.' || lpad(g::text, 4, '0'), p, log_end - lag, 0, log_end, lag,
                'Stable', 'c-' || (p % 3), '/10.0.1.' || (p % 3 + 1), 'RoundRobinAssigner',
                (lag * 1000 / rate)::bigint, CASE WHEN lag = 0 THEN 'caught-up' ELSE 'interpolated' END, rate, rate
         FROM generate_series($5::int, $6::int) AS g
         CROSS JOIN generate_series(0, $2::int - 1) AS r
         CROSS JOIN generate_series(0, $7::int - 1) AS p
         CROSS JOIN LATERAL (SELECT (5 + g % 20)::float8 AS rate,
           (1000000::bigint + r::bigint * ($3::bigint / 1000) * (5 + g % 20)) AS log_end,
           CASE WHEN g % 50 = 0 THEN r::bigint * ($3::bigint / 1000) * (5 + g % 20) + 100
                ELSE ((37 * g + 11 * p) % 1000)::bigint END AS lag) AS v
         ORDER BY r, g, p`,
        [endMs, rounds, FLEET_ROUND_MS, FLEET_GROUP_PREFIX, first, last, partitions],
      );
      log(`(11c) seeded groups ${first + 1}-${last + 1} of ${groups}`);
    }
    await seedSamples(client, {
      groupId: FLEET_WIDE_GROUP,
      topic: 'warden-bench.fleet-wide.clicks',
      endMs,
      days: FLEET_HISTORY_MS / 86_400_000,
      intervalMs: 5_000,
      partitions: FLEET_WIDE_PARTITIONS,
    });
    await client.query('ANALYZE lag_sample');
    const counted = await client.query<{ count: string }>(
      `SELECT count(*) AS count FROM lag_sample WHERE group_id LIKE $1 OR group_id = $2`,
      [`${FLEET_GROUP_PREFIX}%`, FLEET_WIDE_GROUP],
    );
    return {
      groups,
      partitions,
      lagSampleRows: Number(counted.rows[0]?.count ?? 0),
      seedMs: performance.now() - started,
    };
  } finally {
    await client.end();
  }
}
