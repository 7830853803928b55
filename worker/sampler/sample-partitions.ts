import type { Database } from '../../lib/db';

// lag_sample is partitioned by UTC day on sampled_at (prisma/migrations/20261202055000_lag_sample_by_day):
// one partition lag_sample_dYYYYMMDD per day, and lag_sample_default for rows of a day without one. The
// leading sampler's maintenance keeps the days of the raw retention and a few ahead in place, and raw
// retention drops a day's partition once the whole day is past the cutoff: no row-by-row delete, no bloat.
// The default partition (rows written before their day existed: a fresh install, a clock far off, seeded
// history) is emptied of expired rows in bounded batches.
//
// Failure behaviour: every step is idempotent and takes a transaction-scoped advisory lock, so two
// instances maintaining at once wait for each other instead of racing on CREATE/ATTACH/DROP; an error is
// thrown to the caller (maintenance logs it and retries at its next run). Inserts never fail for a missing
// day: the default partition takes them.

const DAY_MS = 86_400_000;
const PARTITION_PREFIX = 'lag_sample_d';
export const DEFAULT_SAMPLE_PARTITION = 'lag_sample_default';
/** Any constant both sides agree on: only partition maintenance takes it. */
const PARTITION_LOCK_KEY = 0x1a65_da75;

const dayStartMs = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/** "lag_sample_d20261201" for the UTC day holding `ms`. */
export function samplePartitionName(ms: number): string {
  return `${PARTITION_PREFIX}${new Date(dayStartMs(ms)).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

/** The day partitions that exist, with the UTC day each holds (epoch ms of its start), oldest first. */
export async function listSamplePartitions(db: Database): Promise<Array<{ name: string; dayStartMs: number }>> {
  const rows = await db.$queryRaw<Array<{ name: string }>>`
    SELECT c.relname::text AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = 'lag_sample'::regclass`;
  return rows
    .flatMap(({ name }) => {
      const match = /^lag_sample_d(\d{4})(\d{2})(\d{2})$/.exec(name);
      return match ? [{ name, dayStartMs: Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) }] : [];
    })
    .sort((a, b) => a.dayStartMs - b.dayStartMs);
}

/**
 * Creates the day partitions from `daysBack` days before `now` to `daysAhead` days after it that do not exist
 * yet, moving any rows of those days out of the default partition first. Returns the names created.
 */
export async function ensureSamplePartitions(
  db: Database,
  options: { now: Date; daysBack: number; daysAhead: number },
): Promise<string[]> {
  const today = dayStartMs(options.now.getTime());
  const wanted = [];
  for (let day = -options.daysBack; day <= options.daysAhead; day++) wanted.push(today + day * DAY_MS);
  const existing = new Set((await listSamplePartitions(db)).map((p) => p.dayStartMs));
  const missing = wanted.filter((day) => !existing.has(day));
  const created: string[] = [];
  for (const day of missing) {
    const name = samplePartitionName(day);
    const from = new Date(day).toISOString();
    const to = new Date(day + DAY_MS).toISOString();
    const made = await db.$transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(${PARTITION_LOCK_KEY})`;
        const found = await tx.$queryRaw<Array<{ exists: boolean }>>`
        SELECT to_regclass(${name}::text) IS NOT NULL AS exists`;
        if (found[0]?.exists) return false;
        // The name is built from a date alone; the bounds are ISO timestamps: no input reaches the SQL text.
        await tx.$executeRawUnsafe(`CREATE TABLE "${name}" (LIKE lag_sample INCLUDING DEFAULTS)`);
        await tx.$executeRawUnsafe(
          `WITH moved AS (DELETE FROM ${DEFAULT_SAMPLE_PARTITION} WHERE sampled_at >= '${from}' AND sampled_at < '${to}' RETURNING *)
         INSERT INTO "${name}" SELECT * FROM moved`,
        );
        await tx.$executeRawUnsafe(
          `ALTER TABLE lag_sample ATTACH PARTITION "${name}" FOR VALUES FROM ('${from}') TO ('${to}')`,
        );
        return true;
      },
      { timeout: PARTITION_MOVE_TIMEOUT_MS },
    );
    if (made) created.push(name);
  }
  return created;
}

/**
 * Moving a fleet's round out of the default partition outlasts Prisma's 5 s transaction default on a busy
 * host; a maintenance that still gives up leaves the day unmade and the rows in the default partition (readers
 * see them there) until the next maintenance.
 */
const PARTITION_MOVE_TIMEOUT_MS = 120_000;

/** Drops every day partition whose whole day lies before `cutoff`. Returns the names dropped. */
export async function dropExpiredSamplePartitions(db: Database, cutoff: Date): Promise<string[]> {
  const expired = (await listSamplePartitions(db)).filter((p) => p.dayStartMs + DAY_MS <= cutoff.getTime());
  for (const { name } of expired) {
    await db.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${PARTITION_LOCK_KEY})`;
      await tx.$executeRawUnsafe(`DROP TABLE IF EXISTS "${name}"`);
    });
  }
  return expired.map((p) => p.name);
}

/** Deletes the default partition's rows older than `cutoff`, `batchSize` at a time, at most `maxBatches` times. */
export async function deleteExpiredDefaultSamples(
  db: Database,
  cutoff: Date,
  batchSize: number,
  maxBatches: number,
): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < maxBatches; i++) {
    const batch = await db.$executeRaw`
      DELETE FROM lag_sample_default WHERE ctid IN (
        SELECT ctid FROM lag_sample_default WHERE sampled_at < ${cutoff} LIMIT ${batchSize})`;
    deleted += batch;
    if (batch < batchSize) break;
  }
  return deleted;
}
