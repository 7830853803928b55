import { describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import { nodePostgresPool, type Database } from '../../lib/db';
import type { SourceRecord } from '@warden/consumer';
import {
  committedOffsets,
  createTopic,
  eventually,
  readTopic,
  testKafka,
  uniqueName,
} from '../../test-support/integration';
import { connectKafkaAndDatabase } from '../../test-support/kafka-and-database';
import { startPipelineConsumer, upsertEvent } from '../../test-support/pipeline-consumer';
import { classifyPipelineError } from './classify-error';
import { upsertDocuments } from './document-pipeline';
import type { ResultEvent } from './document-pipeline';
import type { TInputEvent } from './events';

// The batch pipeline on the real broker and Postgres: one multi-row upsert per batch, duplicates and
// redeliveries no-ops, the later offset of a business id winning, and a poison record failing alone.

const kafka = testKafka('document-pipeline-it');
let admin: Admin;
let db: Database;
connectKafkaAndDatabase(kafka, (handles) => ({ admin, db } = handles));

function write(businessId: string, offset: number, payload: Record<string, unknown>, partition = 0) {
  const event: TInputEvent = { eventId: `${businessId}@${offset}`, type: 'document.upsert', businessId, payload };
  const record: SourceRecord = {
    topic: 'upsert-it',
    partition,
    offset: String(offset),
    key: null,
    value: null,
    timestampMs: 0,
    headers: {},
  };
  return { event, record };
}

async function stored(businessId: string) {
  return db.storedDocument.findUnique({ where: { businessId } });
}

describe('upsertDocuments: one statement per batch, idempotent by business id', () => {
  it('collapses a business id to its later offset, counts its writes, and ignores redelivered or older records', async () => {
    const id = uniqueName('doc');
    const other = uniqueName('doc');
    await upsertDocuments(nodePostgresPool(db), [
      write(id, 7, { v: 'late' }),
      write(other, 5, { v: 'o' }),
      write(id, 3, { v: 'early' }),
    ]);
    expect(await stored(id)).toMatchObject({ payload: { v: 'late' }, sourceOffset: 7n, writeCount: 2 });
    expect(await stored(other)).toMatchObject({ payload: { v: 'o' }, writeCount: 1 });

    // Redelivery of the stored record, and an older record of the same partition: nothing changes.
    await upsertDocuments(nodePostgresPool(db), [write(id, 7, { v: 'late' }), write(id, 3, { v: 'early' })]);
    await upsertDocuments(nodePostgresPool(db), [write(id, 6, { v: 'older' })]);
    expect(await stored(id)).toMatchObject({ payload: { v: 'late' }, sourceOffset: 7n, writeCount: 2 });

    // A later record of the same business id updates it and counts once.
    await upsertDocuments(nodePostgresPool(db), [write(id, 9, { v: 'newest' })]);
    expect(await stored(id)).toMatchObject({ payload: { v: 'newest' }, sourceOffset: 9n, writeCount: 3 });
  });

  it('assigns first_store_seq in the order of the batch', async () => {
    const ids = Array.from({ length: 5 }, () => uniqueName('seq'));
    await upsertDocuments(
      nodePostgresPool(db),
      ids.map((id, index) => write(id, index, {})),
    );
    const rows = await db.storedDocument.findMany({ where: { businessId: { in: ids } } });
    const bySeq = [...rows].sort((a, b) => (a.firstStoreSeq < b.firstStoreSeq ? -1 : 1)).map((row) => row.businessId);
    expect(bySeq).toEqual(ids);
  });

  it('refuses the whole statement when one row is refused (the pipeline then stores row by row)', async () => {
    const good = uniqueName('good');
    const refused = await upsertDocuments(nodePostgresPool(db), [
      write(good, 1, { v: 1 }),
      write(uniqueName('bad'), 2, { text: 'bad\u0000byte' }),
    ]).then(
      () => null,
      (error: unknown) => error,
    );
    // jsonb refuses the NUL escape (SQLSTATE 22P05): the record's own fault, so never retried.
    expect(refused).toMatchObject({ code: '22P05' });
    expect(classifyPipelineError(refused)).toBe('permanent');
    expect(await stored(good)).toBeNull();
  });
});

describe('the batch pipeline on the broker', () => {
  it('stores a batch with duplicates and a poison record: neighbours stored, poison failed alone, redelivery a no-op', async () => {
    const prefix = uniqueName('batch');
    const topic = `${prefix}-in`;
    const results = `${prefix}-results`;
    await createTopic(admin, topic, 1);
    await createTopic(admin, results, 1);
    const doc = (name: string) => `${prefix}-${name}`;
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const values = [
      upsertEvent(0, { businessId: doc('a'), resultKey: 'r-a0', payload: { v: 'first' } }),
      upsertEvent(1, { businessId: doc('b'), resultKey: 'r-b' }),
      upsertEvent(2, { businessId: doc('a'), resultKey: 'r-a2', payload: { v: 'second' } }),
      // Valid and keyed, but Postgres jsonb rejects \u0000: a permanent store failure inside the batch.
      upsertEvent(3, { businessId: doc('poison'), resultKey: 'r-poison', payload: { text: 'bad\u0000byte' } }),
      upsertEvent(4, { businessId: doc('c'), resultKey: 'r-c' }),
      // The same event produced twice (a producer retry without idempotence): same content, later offset.
      upsertEvent(5, { businessId: doc('d'), resultKey: 'r-d' }),
      upsertEvent(5, { businessId: doc('d'), resultKey: 'r-d' }),
    ];
    await producer.send({ topic, acks: -1, messages: values.map((value) => ({ key: 'one-key', value })) });
    await producer.disconnect();

    const run = async (groupId: string) => {
      const sizes: number[] = [];
      const pipeline = await startPipelineConsumer({
        kafka,
        db,
        groupId,
        topics: [topic],
        resultsTopic: results,
        batch: { onBatch: (size) => sizes.push(size) },
        consumer: { ordering: 'partition', batchSize: 100, batchLingerMs: 20, fromBeginning: true },
      });
      try {
        await eventually('all committed', async () => {
          const offsets = await committedOffsets(admin, groupId, topic);
          return offsets.get(0) === String(values.length) ? true : undefined;
        });
      } finally {
        await pipeline.stop();
      }
      return sizes;
    };

    const sizes = await run(`${prefix}-group`);
    expect(Math.max(...sizes)).toBeGreaterThan(1);
    expect(await stored(doc('a'))).toMatchObject({ payload: { v: 'second' }, sourceOffset: 2n, writeCount: 2 });
    expect(await stored(doc('b'))).toMatchObject({ writeCount: 1 });
    expect(await stored(doc('c'))).toMatchObject({ writeCount: 1 });
    expect(await stored(doc('d'))).toMatchObject({ sourceOffset: 6n, writeCount: 2 });
    expect(await stored(doc('poison'))).toBeNull();

    const published = (await readTopic(kafka, results, values.length)).map(
      (message) => JSON.parse(message.value!) as ResultEvent,
    );
    const statusOf = (offset: number) => published.find((result) => result.source.offset === String(offset))?.status;
    expect(values.map((_, offset) => statusOf(offset))).toEqual([
      'stored',
      'stored',
      'stored',
      'failed',
      'stored',
      'stored',
      'stored',
    ]);
    expect(published.find((result) => result.status === 'failed')?.error?.message).toMatch(/unsupported|\\u0000/i);

    // A second group reads every record again: a redelivery of what the documents already hold changes nothing.
    const before = await db.storedDocument.findMany({ where: { businessId: { startsWith: prefix } } });
    await run(`${prefix}-replay`);
    const after = await db.storedDocument.findMany({ where: { businessId: { startsWith: prefix } } });
    expect(after.map((row) => [row.businessId, row.writeCount, row.sourceOffset])).toEqual(
      before.map((row) => [row.businessId, row.writeCount, row.sourceOffset]),
    );
  });
});
