import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db';
import { testDatabase } from '../../test-support/database';
import { uniqueName } from '../../test-support/integration';
import { countAttention } from './count-attention';
import { listAlerts } from './list-alerts';
import { listQuarantines } from './list-quarantines';

// GET /api/attention on the real Postgres: the top bar's counts are the lengths of what GET /api/quarantine and
// GET /api/alerts list. Integration files run one at a time, so nothing writes between a count and a listing.

describe('GET /api/attention', () => {
  let db: Database;
  const groupId = uniqueName('attention');

  beforeAll(() => {
    db = testDatabase();
  });

  afterAll(async () => {
    await db?.$disconnect();
  });

  async function holdPartition(partition: number, cluster = 'default') {
    await db.partitionQuarantine.create({
      data: {
        cluster,
        groupId,
        topic: 'orders',
        partition,
        offset: 10n,
        reason: 'bad json',
        errorClass: 'parse',
        since: new Date(),
        attempts: 0,
        recordHeaders: {},
      },
    });
  }

  async function alertIn(phase: string, cluster = 'default') {
    const now = new Date();
    await db.alert.create({
      data: {
        cluster,
        id: `${cluster}/${groupId}:${phase}:${now.getTime()}:${Math.random()}`,
        key: `group-status:${groupId}:${phase}`,
        condition: 'group-status',
        groupId,
        phase,
        severity: 'critical',
        activeSince: now,
        firingSince: phase === 'pending' ? null : now,
        resolvedAt: phase === 'resolved' ? now : null,
        summary: `${groupId} is ERR`,
        reasons: [],
        updatedAt: now,
      },
    });
  }

  async function listedCounts() {
    const [{ quarantines }, { open }] = await Promise.all([listQuarantines(db), listAlerts(db, {})]);
    return {
      quarantinedPartitions: quarantines.length,
      firingAlerts: open.filter((a) => a.phase === 'firing').length,
    };
  }

  it('counts every held partition and every firing alert of every cluster, as the lists do', async () => {
    const before = await countAttention(db);
    expect(before).toEqual(await listedCounts());

    await holdPartition(0);
    await holdPartition(1, uniqueName('east'));
    await alertIn('firing');
    await alertIn('firing', uniqueName('east'));
    await alertIn('pending');
    await alertIn('resolved');

    const after = await countAttention(db);
    expect(after).toEqual({
      quarantinedPartitions: before.quarantinedPartitions + 2,
      firingAlerts: before.firingAlerts + 2,
    });
    expect(after).toEqual(await listedCounts());
  });
});
