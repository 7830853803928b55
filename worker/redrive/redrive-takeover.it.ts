import type { Admin, Producer } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../lib/db';
import { DEAD_LETTER_HEADERS } from '../../lib/dead-letters/dead-letter-record';
import type { RecordSource } from '../../lib/kafka/partition-records';
import { REDRIVE_HEADERS } from '../../lib/schemas/dead-letters';
import { requestRedrive } from '../../lib/server/dead-letters/request-redrive';
import { createTopic, testKafka, uniqueName } from '../../test-support/integration';
import { connectKafkaDatabaseAndRecords } from '../../test-support/kafka-and-database';
import type { Clock } from '@warden/consumer';
import { RedriveRunner, type RedriveSend } from './redrive-runner';
import { producerSend } from './start-redrive';

// The two places a worker can die inside a batch, made deterministic: after the 'sending' rows are written
// but before the produce, and after the produce but before the rows turn 'sent'. A second runner that takes
// the job over once the lease lapsed must send the first kind and must not send the second kind again.

const kafka = testKafka('warden-redrive-takeover-it');
let admin: Admin;
let db: Database;
let source: RecordSource;
let producer: Producer;
connectKafkaDatabaseAndRecords(kafka, (handles) => ({ admin, db, source, producer } = handles));

const LEASE_MS = 60_000;
/** Real time shifted by `skewMs`: a runner whose clock is past the first one's lease may take the job over. */
const clockAt = (skewMs: number): Clock => ({
  now: () => Date.now() + skewMs,
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
});
/** Never settles: the runner awaiting it is as good as killed at that point. */
const never = () => new Promise<never>(() => undefined);

async function setUp(count: number) {
  const prefix = uniqueName('takeover');
  const dlq = `${prefix}-dlq`;
  const origin = `${prefix}-orders`;
  await createTopic(admin, dlq, 1);
  await createTopic(admin, origin, 1);
  await producer.send({
    topic: dlq,
    acks: -1,
    messages: Array.from({ length: count }, (_, i) => ({
      key: `k${i}`,
      value: `v${i}`,
      headers: {
        [DEAD_LETTER_HEADERS.topic]: origin,
        [DEAD_LETTER_HEADERS.partition]: '0',
        [DEAD_LETTER_HEADERS.offset]: String(i),
        [DEAD_LETTER_HEADERS.errorClass]: 'permanent',
      },
    })),
  });
  // The same guard a real cluster would give: one cluster value per test so other jobs are not claimed.
  const cluster = prefix;
  const job = await requestRedrive(
    db,
    source,
    { cluster, topic: dlq, ratePerSec: 10_000 },
    { selection: { kind: 'filter', filter: {} }, reason: 'takeover test', expectedCount: count, force: false },
    'alice',
  );
  return { dlq, origin, cluster, jobId: BigInt(job.id) };
}

async function arrivedOf(origin: string): Promise<string[]> {
  const [log] = (await source.partitionLogs(origin)) ?? [];
  const records = await source.readRange(origin, 0, log!.low, log!.high, 10_000);
  return records.map((r) => r.headers[REDRIVE_HEADERS.of]!.toString());
}

function runner(cluster: string, instanceId: string, send: RedriveSend, skewMs = 0) {
  return new RedriveRunner({
    db,
    source,
    send,
    clock: clockAt(skewMs),
    instanceId,
    leaseMs: LEASE_MS,
    cluster,
    batchMax: 10,
  });
}

describe('redrive takeover', () => {
  it('does not send again a batch produced before its worker died, and sends the rest once', async () => {
    const { origin, cluster, jobId } = await setUp(25);
    const real = producerSend(producer);
    let calls = 0;
    const dying: RedriveSend = async (topic, messages) => {
      calls += 1;
      if (calls === 1) return real(topic, messages);
      await real(topic, messages); // the produce lands, then the worker dies before recording it
      return never();
    };
    void runner(cluster, 'worker-a', dying).round();
    await expect.poll(() => arrivedOf(origin).then((a) => a.length), { timeout: 20_000 }).toBe(20);
    expect(await db.redrivenRecord.count({ where: { jobId, state: 'sending' } })).toBe(10);

    // Within the lease the job stays with its worker: nobody else may take it.
    expect(await runner(cluster, 'worker-b', real).round()).toBe(false);
    expect(await runner(cluster, 'worker-b', real, LEASE_MS + 1_000).round()).toBe(true);

    const arrived = await arrivedOf(origin);
    expect(arrived).toHaveLength(25);
    expect(new Set(arrived).size).toBe(25);
    const job = await db.redriveJob.findUniqueOrThrow({ where: { id: jobId } });
    expect(job).toMatchObject({ status: 'done', sent: 25, executedBy: 'worker-b' });
  });

  it('sends a batch whose worker died before producing it', async () => {
    const { origin, cluster, jobId } = await setUp(15);
    const real = producerSend(producer);
    let calls = 0;
    const dying: RedriveSend = async (topic, messages) => {
      calls += 1;
      if (calls === 1) return real(topic, messages);
      return never(); // dies with the 'sending' rows written and nothing produced
    };
    void runner(cluster, 'worker-a', dying).round();
    await expect
      .poll(() => db.redrivenRecord.count({ where: { jobId, state: 'sending' } }), { timeout: 20_000 })
      .toBe(5);
    expect(await arrivedOf(origin)).toHaveLength(10);

    expect(await runner(cluster, 'worker-b', real, LEASE_MS + 1_000).round()).toBe(true);
    const arrived = await arrivedOf(origin);
    expect(arrived).toHaveLength(15);
    expect(new Set(arrived).size).toBe(15);
    expect(await db.redrivenRecord.count({ where: { jobId, state: 'sent' } })).toBe(15);
  });
});
