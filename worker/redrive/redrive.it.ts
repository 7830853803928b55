import type { Admin, Producer } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { loadTestConfig } from '../../test-support/test-config';
import type { Database } from '../../lib/db';
import { DEAD_LETTER_HEADERS } from '../../lib/dead-letters/dead-letter-record';
import type { FetchedRecord, RecordSource } from '../../lib/kafka/partition-records';
import { REDRIVE_HEADERS } from '../../lib/schemas/dead-letters';
import { ApiError } from '../../lib/server/api-error';
import { listDeadLetters } from '../../lib/server/dead-letters/list-dead-letters';
import { listAudit } from '../../lib/server/list-audit';
import { requestRedrive } from '../../lib/server/dead-letters/request-redrive';
import { WorkerProcess } from '../../scripts/lib/worker-process';
import { createTopic, eventually, testKafka, uniqueName } from '../../test-support/integration';
import { connectKafkaDatabaseAndRecords } from '../../test-support/kafka-and-database';
import { readCommitted } from './redrive-test-support';

// Redrive on the real broker, run by the real worker process: a job of a few thousand dead letters at a
// limited rate, the worker killed with SIGKILL in the middle and a second one taking the job over. A
// read_committed reader of the source topic must see every record exactly once; a second redrive of them is
// refused, naming who.

const kafka = testKafka('warden-redrive-it');
let admin: Admin;
let db: Database;
let source: RecordSource;
let producer: Producer;
connectKafkaDatabaseAndRecords(kafka, (handles) => ({ admin, db, source, producer } = handles));

const RECORDS = 3_000;
const RATE_PER_SEC = 400;
/** Dead letters of the last hour (the broker refuses timestamps far in the future). */
const BASE_TIME_MS = Date.now() - 3_600_000;

/** Dead letters as worker/pipeline/dead-letter.ts writes them: original key/value/headers plus Warden's. */
async function writeDeadLetters(
  dlq: string,
  origin: string,
  count: number,
  value: (i: number) => Buffer,
): Promise<void> {
  for (let start = 0; start < count; start += 1_000) {
    await producer.send({
      topic: dlq,
      acks: -1,
      messages: Array.from({ length: Math.min(1_000, count - start) }, (_, j) => {
        const i = start + j;
        return {
          partition: i % 2,
          key: `key-${i}`,
          value: value(i),
          timestamp: String(BASE_TIME_MS + i),
          headers: {
            'app-header': `h-${i}`,
            [DEAD_LETTER_HEADERS.topic]: origin,
            [DEAD_LETTER_HEADERS.partition]: String(i % 3),
            [DEAD_LETTER_HEADERS.offset]: String(i),
            [DEAD_LETTER_HEADERS.errorClass]: i % 10 === 0 ? 'decode' : 'permanent',
            [DEAD_LETTER_HEADERS.message]: `failed ${i}`,
            [DEAD_LETTER_HEADERS.attempts]: '3',
          },
        };
      }),
    });
  }
}

/** Every record of every partition of `topic`, read by offset (no group). */
async function readAll(topic: string): Promise<FetchedRecord[]> {
  const logs = (await source.partitionLogs(topic)) ?? [];
  const all: FetchedRecord[] = [];
  for (const log of logs) all.push(...(await source.readRange(topic, log.partition, log.low, log.high, 1_000_000)));
  return all;
}

describe('redrive', () => {
  it('sends every record once across a worker kill -9, at the job rate, and refuses a second redrive', async () => {
    const prefix = uniqueName('redrive');
    const dlq = `${prefix}-dlq`;
    const origin = `${prefix}-orders`;
    await createTopic(admin, dlq, 2);
    await createTopic(admin, origin, 3);
    await createTopic(admin, `${prefix}-in`, 1);
    await writeDeadLetters(dlq, origin, RECORDS, (i) => Buffer.from(JSON.stringify({ i })));

    const target = { cluster: 'default', topic: dlq, ratePerSec: RATE_PER_SEC };
    const selection = { kind: 'filter' as const, filter: { sourceTopic: origin } };
    const job = await requestRedrive(
      db,
      source,
      target,
      { selection, reason: 'bug 42 fixed', expectedCount: RECORDS, force: false },
      'alice',
    );
    expect(job).toMatchObject({ status: 'pending', total: RECORDS, requestedBy: 'alice' });

    const env = {
      WARDEN_GROUP_ID: `${prefix}-group`,
      WARDEN_INPUT_TOPIC: `${prefix}-in`,
      WARDEN_RESULTS_TOPIC: `${prefix}-results`,
      WARDEN_DLQ_TOPIC: dlq,
      WARDEN_INPUT_PARTITIONS: '1',
      WORKER_PORT: String(loadTestConfig().WORKER_PORT + 11),
      SAMPLER_GROUP_INCLUDE: '^$',
      SAMPLE_INTERVAL_MS: '60000',
      COMMAND_POLL_INTERVAL_MS: '200',
      REDRIVE_LEASE_MS: '2000',
      // The restarted worker rejoins once the killed member's session has lapsed.
      WARDEN_SESSION_TIMEOUT_MS: '6000',
      LOG_LEVEL: 'info',
    };
    const progress = async () => (await db.redriveJob.findUniqueOrThrow({ where: { id: BigInt(job.id) } })).sent;
    const first = new WorkerProcess(env);
    await first.start();
    const startedAt = Date.now();
    await eventually('a third sent', async () => ((await progress()) >= RECORDS / 3 ? true : undefined), 60_000);
    const sentAtKill = await progress();
    const rate = sentAtKill / ((Date.now() - startedAt) / 1_000);
    await first.stop('SIGKILL');
    expect(sentAtKill).toBeLessThan(RECORDS);

    const second = new WorkerProcess(env);
    await second.start();
    try {
      await eventually(
        'the job done',
        async () => {
          const row = await db.redriveJob.findUniqueOrThrow({ where: { id: BigInt(job.id) } });
          return row.status === 'done' ? row : undefined;
        },
        90_000,
      );
    } finally {
      expect(await second.stop('SIGTERM')).toBe(0);
    }
    const done = await db.redriveJob.findUniqueOrThrow({ where: { id: BigInt(job.id) } });
    expect(done).toMatchObject({ sent: RECORDS, skipped: 0, failed: 0 });

    // Exactly once for read_committed readers: every dead letter appears once in the source topic, on its
    // source partition, as it was (a read_uncommitted reader may also see the killed worker's aborted batch).
    const ofs = await readCommitted(kafka, producer, origin);
    expect(ofs).toHaveLength(RECORDS);
    expect(new Set(ofs).size).toBe(RECORDS);
    const arrived = await readAll(origin);
    const sample = arrived.find((r) => r.headers[REDRIVE_HEADERS.of]!.toString() === `${dlq}/1/7`)!;
    expect(sample.key?.toString()).toBe('key-15');
    expect(sample.value?.toString()).toBe('{"i":15}');
    expect(sample.partition).toBe(0);
    expect(sample.headers['app-header']?.toString()).toBe('h-15');
    expect(sample.headers[REDRIVE_HEADERS.id]?.toString()).toBe(job.id);
    expect(sample.headers[DEAD_LETTER_HEADERS.errorClass]).toBeUndefined();
    expect(await db.redrivenRecord.count({ where: { jobId: BigInt(job.id), state: 'sent' } })).toBe(RECORDS);
    console.log(
      `redrive kill -9: rate ${rate.toFixed(0)} records/s (job rate ${RATE_PER_SEC}); sent at kill ${sentAtKill}, ` +
        `after takeover ${ofs.length} read_committed, ${new Set(ofs).size} distinct`,
    );

    // Audited through GET /api/audit: who, why, the filter and the outcome counts.
    const audited = (await listAudit(db, { limit: 1_000 })).redrives.find((r) => r.id === job.id);
    expect(audited).toMatchObject({
      requestedBy: 'alice',
      reason: 'bug 42 fixed',
      selection,
      status: 'done',
      sent: RECORDS,
    });

    // A second redrive of the same records is refused, naming when and by whom, and kept for the audit.
    const refusal = await requestRedrive(
      db,
      source,
      target,
      {
        selection: { kind: 'records', records: [{ partition: 1, offset: '7' }] },
        reason: 'again',
        expectedCount: 1,
        force: false,
      },
      'bob',
    ).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).status).toBe(409);
    expect((refusal as ApiError).message).toMatch(
      new RegExp(
        `1 of the 1 selected record\\(s\\) were redriven before: e\\.g\\. ${dlq} 1:7 by alice at .* \\(redrive #${job.id}`,
      ),
    );
    expect(await db.redriveJob.count({ where: { dlqTopic: dlq, status: 'rejected', requestedBy: 'bob' } })).toBe(1);
    // A count the operator did not confirm is refused too.
    await expect(
      requestRedrive(db, source, target, { selection, reason: 'x', expectedCount: 5, force: true }, 'bob'),
    ).rejects.toThrow(`the selection now matches ${RECORDS} record(s), not the 5 you confirmed`);
  }, 240_000);

  it('shows binary, invalid UTF-8 and control characters safely, and hides payloads from whom access denies', async () => {
    const prefix = uniqueName('dlq-view');
    const dlq = `${prefix}-dlq`;
    await createTopic(admin, dlq, 2);
    const values = [
      Buffer.from([0xff, 0xfe, 0x00, 0x41]),
      Buffer.from('ok \u0000\u001b[31m <script>alert(1)</script>'),
      Buffer.from([0xc3, 0x28]),
    ];
    await writeDeadLetters(dlq, `${prefix}-orders`, 3, (i) => values[i]!);
    const target = { cluster: 'default', topic: dlq };
    const page = await listDeadLetters(db, source, target, {
      filter: {},
      limit: 10,
      showPayloads: true,
      payloadAccess: 'viewer',
    });
    const byOffset = new Map(page.records.map((r) => [`${r.dlq.partition}:${r.dlq.offset}`, r]));
    expect(byOffset.get('0:0')?.preview).toBe('hex:fffe0041');
    expect(byOffset.get('1:0')?.preview).toBe('ok \\u0000\\u001b[31m <script>alert(1)</script>');
    expect(byOffset.get('0:1')?.preview).toBe('hex:c328');
    expect(byOffset.get('0:1')).toMatchObject({
      errorClass: 'permanent',
      attempts: 3,
      source: { partition: 2, offset: '2' },
    });
    expect(page.records.map((r) => r.dlq.offset + '@' + r.dlq.partition)).toEqual(['1@0', '0@1', '0@0']);

    const hidden = await listDeadLetters(db, source, target, {
      filter: {},
      limit: 10,
      showPayloads: false,
      payloadAccess: 'operator',
    });
    expect(hidden.records).toHaveLength(3);
    for (const r of hidden.records)
      expect(r).toMatchObject({ key: null, preview: null, headers: {}, payloadHidden: true });
  });
});
