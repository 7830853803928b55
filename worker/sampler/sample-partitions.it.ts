import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../lib/db';
import { testDatabase } from '../../test-support/database';
import { uniqueName } from '../../test-support/integration';
import {
  deleteExpiredDefaultSamples,
  dropExpiredSamplePartitions,
  ensureSamplePartitions,
  listSamplePartitions,
} from './sample-partitions';

// lag_sample's day partitions on the real Postgres. The days are in January 2000, before any other test's
// rows, so a cutoff there touches nothing of theirs (integration files run one at a time); every partition
// of 2000 is dropped afterwards.

const DAY = 86_400_000;
const D10 = Date.UTC(2000, 0, 10);

describe('lag_sample day partitions', () => {
  let db: Database;
  const groupId = uniqueName('parts');

  beforeAll(() => {
    db = testDatabase();
  });

  afterAll(async () => {
    // Only this test's days: every other day partition holds other tests' rows.
    for (const { name } of await listSamplePartitions(db)) {
      if (name.startsWith('lag_sample_d2000')) await db.$executeRawUnsafe(`DROP TABLE "${name}"`);
    }
    await db.lagSample.deleteMany({ where: { groupId } });
    await db?.$disconnect();
  });

  const sample = (atMs: number) => ({
    sampledAt: new Date(atMs),
    groupId,
    topic: 't',
    partition: 0,
    committedOffset: 1n,
    logStartOffset: 0n,
    logEndOffset: 2n,
    lag: 1n,
    groupState: 'Stable',
  });

  /** Which table each of this test's rows lives in, by sample time. */
  const homes = async () =>
    (
      await db.$queryRaw<Array<{ at: Date; home: string }>>`
        SELECT sampled_at AS at, tableoid::regclass::text AS home FROM lag_sample WHERE group_id = ${groupId}
        ORDER BY sampled_at`
    ).map((r) => [r.at.toISOString(), r.home]);

  it('creates the days ahead, moving rows of those days out of the default partition', async () => {
    await db.lagSample.createMany({ data: [sample(D10 + 12 * 3_600_000)] });
    expect(await homes()).toEqual([['2000-01-10T12:00:00.000Z', 'lag_sample_default']]);

    const created = await ensureSamplePartitions(db, { now: new Date(D10 + 3_600_000), daysBack: 1, daysAhead: 2 });
    expect(created).toEqual([
      'lag_sample_d20000109',
      'lag_sample_d20000110',
      'lag_sample_d20000111',
      'lag_sample_d20000112',
    ]);
    expect(await homes()).toEqual([['2000-01-10T12:00:00.000Z', 'lag_sample_d20000110']]);
    // Idempotent.
    expect(await ensureSamplePartitions(db, { now: new Date(D10), daysBack: 1, daysAhead: 2 })).toEqual([]);

    // New rows go straight into their day.
    await db.lagSample.createMany({ data: [sample(D10 + DAY + 60_000)] });
    expect((await homes()).at(-1)).toEqual(['2000-01-11T00:01:00.000Z', 'lag_sample_d20000111']);
  });

  it('drops only days wholly before the cutoff; the default partition loses its expired rows row by row', async () => {
    await db.lagSample.createMany({ data: [sample(Date.UTC(1999, 11, 1)), sample(Date.UTC(1999, 11, 2))] });
    const dropped = await dropExpiredSamplePartitions(db, new Date(D10 + DAY + 6 * 3_600_000));
    expect(dropped).toEqual(['lag_sample_d20000109', 'lag_sample_d20000110']);
    const names = (await listSamplePartitions(db)).map((p) => p.name);
    expect(names).toContain('lag_sample_d20000111');
    expect(names).not.toContain('lag_sample_d20000110');
    expect(await deleteExpiredDefaultSamples(db, new Date(Date.UTC(1999, 11, 2)), 1, 10)).toBe(1);
    expect(await homes()).toEqual([
      ['1999-12-02T00:00:00.000Z', 'lag_sample_default'],
      ['2000-01-11T00:01:00.000Z', 'lag_sample_d20000111'],
    ]);
  });
});
