import type { Admin, Producer } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import type { Database } from '../db';
import type { RecordSource } from '../kafka/partition-records';
import { createTopic, testKafka, uniqueName } from '../../test-support/integration';
import { connectKafkaDatabaseAndRecords } from '../../test-support/kafka-and-database';
import { ApiError } from './api-error';
import { readRecordsAround } from './read-records-around';

// The quarantine card's neighbours, read from the real broker: a few records before the held offset and a page
// after it, payloads only for whom WARDEN_PAYLOAD_ACCESS allows, 404 for a partition that is not held.

const kafka = testKafka('warden-around-it');
let admin: Admin;
let db: Database;
let source: RecordSource;
let producer: Producer;
connectKafkaDatabaseAndRecords(kafka, (handles) => ({ admin, db, source, producer } = handles));

describe('records around a quarantine', () => {
  it('reads five before, the held one and twenty after, from the broker', async () => {
    const topic = uniqueName('around');
    const groupId = `${topic}-group`;
    await createTopic(admin, topic, 2);
    await producer.send({
      topic,
      acks: -1,
      messages: Array.from({ length: 40 }, (_, i) => ({
        partition: 1,
        key: `k${i}`,
        value: i === 12 ? Buffer.from([0xff, 0x00]) : `v${i}`,
      })),
    });
    await db.partitionQuarantine.create({
      data: {
        groupId,
        topic,
        partition: 1,
        offset: 12n,
        reason: 'bad',
        errorClass: 'decode',
        since: new Date(),
        attempts: 0,
        recordHeaders: {},
      },
    });
    const target = { groupId, topic, partition: 1 };
    const around = await readRecordsAround(db, source, target, true);
    expect(around.before.map((r) => r.offset)).toEqual(['7', '8', '9', '10', '11']);
    expect(around.held).toMatchObject({ offset: '12', key: 'k12', preview: 'hex:ff00' });
    expect(around.after.map((r) => r.offset)).toEqual(Array.from({ length: 20 }, (_, i) => String(13 + i)));
    expect(around.after[0]).toMatchObject({ key: 'k13', preview: 'v13' });

    const hidden = await readRecordsAround(db, source, target, false);
    expect(hidden.payloadHidden).toBe(true);
    expect([...hidden.before, hidden.held!, ...hidden.after].every((r) => r.key === null && r.preview === null)).toBe(
      true,
    );

    const notHeld = await readRecordsAround(db, source, { ...target, partition: 0 }, true).catch((e: unknown) => e);
    expect(notHeld).toBeInstanceOf(ApiError);
    expect((notHeld as ApiError).status).toBe(404);
  });
});
