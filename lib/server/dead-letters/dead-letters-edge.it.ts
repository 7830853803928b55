import type { Admin, Producer } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../db';
import type { RecordSource } from '../../kafka/partition-records';
import { createTopic, testKafka, uniqueName } from '../../../test-support/integration';
import { connectKafkaDatabaseAndRecords } from '../../../test-support/kafka-and-database';
import { ApiError } from '../api-error';
import { listDeadLetters } from './list-dead-letters';
import { matchDeadLetters, requestRedrive } from './request-redrive';

// The dead-letter routes on the real broker at the edges the API fuzz reaches: a dead-letter topic not created
// yet (the writer creates it on the first dead letter), time ranges before the oldest or after the newest
// record, a cursor or a named record in a partition the topic does not have. Each is an empty answer or a
// 4xx naming the field, never the broker's UNKNOWN_TOPIC_OR_PARTITION as a 500.

const kafka = testKafka('warden-dlq-edge-it');
let admin: Admin;
let db: Database;
let source: RecordSource;
let producer: Producer;
connectKafkaDatabaseAndRecords(kafka, (handles) => ({ admin, db, source, producer } = handles));

const FUTURE = { from: '2099-12-31T23:59:59.998Z' };
const PAST = { from: '2000-01-01T00:00:00.023Z', to: '2015-08-02T18:02:37.247Z' };
const page = { limit: 64, showPayloads: true, payloadAccess: 'viewer' as const };

async function refusal(work: Promise<unknown>): Promise<ApiError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('dead-letter routes at the edges of the log', () => {
  it('answer empty for a dead-letter topic that does not exist, and do not create it', async () => {
    const target = { cluster: 'default', topic: uniqueName('dlq-missing') };
    for (const filter of [{}, FUTURE, PAST, { sourceTopic: 'caller', errorClass: 'apply', ...FUTURE }]) {
      const listed = await listDeadLetters(db, source, target, { ...page, filter });
      expect(listed).toMatchObject({ topic: target.topic, records: [], nextCursor: null, scanned: 0 });
      const matched = await matchDeadLetters(db, source, target, { kind: 'filter', filter });
      expect(matched).toMatchObject({ count: 0, alreadyRedriven: 0 });
    }
    const paged = await listDeadLetters(db, source, target, {
      ...page,
      filter: PAST,
      cursor: new Map([[72468468, 3n]]),
    });
    expect(paged.records).toEqual([]);

    const stale = await refusal(
      requestRedrive(
        db,
        source,
        { ...target, ratePerSec: 100 },
        {
          selection: { kind: 'filter', filter: { from: '2050-11-26T15:25:10.915Z', to: '2056-07-21T03:55:32.167Z' } },
          reason: 'fuzz',
          expectedCount: 1713932135548664,
          force: false,
        },
        'alice',
      ),
    );
    expect(stale).toMatchObject({ status: 409, field: 'expectedCount' });
    expect(stale.message).toContain('matches 0 record(s), not the 1713932135548664 you confirmed');

    const named = await refusal(
      requestRedrive(
        db,
        source,
        { ...target, ratePerSec: 100 },
        {
          selection: { kind: 'records', records: [{ partition: 0, offset: '3' }] },
          reason: 'x',
          expectedCount: 1,
          force: false,
        },
        'alice',
      ),
    );
    expect(named).toMatchObject({ status: 400, field: 'selection' });
    expect(await source.partitionLogs(target.topic)).toBeNull();
    expect(await db.redriveJob.count({ where: { dlqTopic: target.topic } })).toBe(0);
  }, 60_000);

  it('answer empty for time ranges and cursors outside an existing topic, 400 for records it does not hold', async () => {
    const topic = uniqueName('dlq-edge');
    await createTopic(admin, topic, 2);
    await producer.send({
      topic,
      acks: -1,
      messages: Array.from({ length: 6 }, (_, i) => ({ partition: i % 2, key: `k${i}`, value: `v${i}` })),
    });
    const target = { cluster: 'default', topic };

    const all = await listDeadLetters(db, source, target, { ...page, filter: {} });
    expect(all.records).toHaveLength(6);
    for (const filter of [FUTURE, PAST]) {
      const listed = await listDeadLetters(db, source, target, { ...page, filter });
      expect(listed).toMatchObject({ records: [], nextCursor: null });
      expect((await matchDeadLetters(db, source, target, { kind: 'filter', filter })).count).toBe(0);
    }
    const foreignCursor = await listDeadLetters(db, source, target, {
      ...page,
      filter: {},
      cursor: new Map([[72468468, 3n]]),
    });
    expect(foreignCursor).toMatchObject({ records: [], nextCursor: null });

    for (const record of [
      { partition: 72468468, offset: '0' },
      { partition: 1, offset: '3' },
    ]) {
      const error = await refusal(
        requestRedrive(
          db,
          source,
          { ...target, ratePerSec: 100 },
          {
            selection: { kind: 'records', records: [record] },
            reason: 'x',
            targetTopic: topic,
            expectedCount: 1,
            force: false,
          },
          'alice',
        ),
      );
      expect(error).toMatchObject({ status: 400, field: 'selection' });
      expect(error.message).toContain(`offset ${record.offset} of partition ${record.partition} is not in ${topic}`);
    }
  }, 60_000);
});
