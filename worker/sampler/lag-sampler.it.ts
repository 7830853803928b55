import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import type { Database } from '../../lib/db';
import { listGroupLag } from '../../lib/server/list-group-lag';
import { testDatabase } from '../../test-support/database';
import { createTopic, testKafka, uniqueName } from '../../test-support/integration';
import { LagSampler } from './lag-sampler';

describe('LagSampler on the real broker and Postgres', () => {
  const kafka = testKafka('warden-sampler-test');
  const topic = uniqueName('sampled');
  const groupId = uniqueName('sampled-group');
  const otherGroup = uniqueName('excluded-group');
  let admin: Admin;
  let db: Database;

  beforeAll(async () => {
    admin = kafka.admin();
    await admin.connect();
    db = testDatabase();
    await createTopic(admin, topic, 2);
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({
      topic,
      acks: -1,
      messages: [
        ...Array.from({ length: 7 }, () => ({ partition: 0, value: 'x' })),
        ...Array.from({ length: 3 }, () => ({ partition: 1, value: 'y' })),
      ],
    });
    await producer.disconnect();
    await admin.setOffsets({ groupId, topic, partitions: [{ partition: 0, offset: '2' }] });
    await admin.setOffsets({ groupId: otherGroup, topic, partitions: [{ partition: 0, offset: '1' }] });
  });

  afterAll(async () => {
    await admin?.disconnect();
    await db?.$disconnect();
  });

  it('writes one row per partition with committed offset, log end and lag, and the API reads it back', async () => {
    const sampler = new LagSampler({
      admin,
      db,
      intervalMs: 60_000,
      ownGroupId: 'warden-unrelated',
      include: new RegExp(`^${groupId}$`),
      exclude: null,
    });
    const at = new Date();
    const rows = await sampler.sampleOnce(at);
    expect(rows.map((r) => r.groupId)).not.toContain(otherGroup);
    const stored = await db.lagSample.findMany({ where: { groupId }, orderBy: { partition: 'asc' } });
    expect(stored.map((r) => [r.partition, r.committedOffset, r.logEndOffset, r.lag, r.groupState])).toEqual([
      [0, 2n, 7n, 5n, 'Empty'],
      [1, null, 3n, null, 'Empty'],
    ]);

    const { groups } = await listGroupLag(db, { now: at });
    const group = groups.find((g) => g.groupId === groupId);
    expect(group).toMatchObject({ totalLag: 5, partitionsWithoutCommit: 1, state: 'Empty' });
    expect(group?.partitions.map((p) => p.committedOffset)).toEqual(['2', null]);
  });

  it('keeps only the latest round per group and forgets groups not sampled recently', async () => {
    const sampler = new LagSampler({ admin, db, intervalMs: 60_000, ownGroupId: groupId, include: /^$/, exclude: null });
    const later = new Date(Date.now() + 1_000);
    await admin.setOffsets({ groupId, topic, partitions: [{ partition: 0, offset: '7' }] });
    await sampler.sampleOnce(later);
    const { groups } = await listGroupLag(db, { now: later });
    expect(groups.find((g) => g.groupId === groupId)?.partitions[0]).toMatchObject({ committedOffset: '7', lag: 0 });
    const muchLater = new Date(later.getTime() + 11 * 60_000);
    expect((await listGroupLag(db, { now: muchLater })).groups).toEqual([]);
  });
});
