import type pg from 'pg';
import { createDatabase, nodePostgresPool } from '../../../lib/db';
import { DEAD_LETTER_HEADERS } from '../../../lib/dead-letters/dead-letter-record';
import { createKafka } from '../../../lib/kafka/client';
import { connectRecordSource } from '../../../lib/kafka/partition-records';
import { requestRedrive } from '../../../lib/server/dead-letters/request-redrive';
import { RedriveRunner } from '../../../worker/redrive/redrive-runner';
import { kafkaRedriveTransport } from '../../../worker/redrive/redrive-transport';
import { epochNowMs, type ChildSpec, type Measurement } from '../protocol';
import { summarizeLatency } from '../stats';

// (16), (16u): a redrive job as the worker runs it (worker/redrive/: one Kafka transaction per batch, the
// job's progress in Postgres), on the real broker and Postgres: the dead letters are written first (not
// timed), then one runner claims the job and runs it to the end. Measured: records/s from the claim to the
// job's end and between its first and last batch, the batches' spacing, and the Postgres round trips (every
// statement node-postgres sends on the job's pool, BEGIN and COMMIT included) per batch.

const DEAD_LETTERS_PER_SEND = 1_000;

/** Counts every query of every client `pool` hands out (the Prisma adapter sends each statement through one). */
function countQueries(pool: pg.Pool): { count: () => number } {
  let count = 0;
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      count += 1;
      return query(...args);
    };
  });
  return { count: () => count };
}

export async function runRedrive(spec: ChildSpec, groupId: string): Promise<Measurement> {
  const settings = spec.redrive;
  if (!settings) throw new Error(`workload ${spec.workload}: the redrive settings are missing`);
  const kafka = createKafka({ brokers: spec.brokers, clientId: `bench-${spec.workload}` });
  const db = createDatabase(settings.databaseUrl, 4);
  const queries = countQueries(nodePostgresPool(db));
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  await producer.connect();
  const source = await connectRecordSource(kafka);
  const transport = kafkaRedriveTransport(kafka);
  try {
    const baselineRssBytes = process.memoryUsage.rss();
    const value = Buffer.alloc(100, 'x');
    for (let start = 0; start < settings.records; start += DEAD_LETTERS_PER_SEND) {
      await producer.send({
        topic: settings.dlqTopic,
        acks: -1,
        messages: Array.from({ length: Math.min(DEAD_LETTERS_PER_SEND, settings.records - start) }, (_, j) => {
          const i = start + j;
          return {
            partition: i % settings.partitions,
            key: `key-${i}`,
            value,
            headers: {
              [DEAD_LETTER_HEADERS.topic]: settings.targetTopic,
              [DEAD_LETTER_HEADERS.partition]: String(i % settings.partitions),
              [DEAD_LETTER_HEADERS.offset]: String(i),
              [DEAD_LETTER_HEADERS.errorClass]: 'permanent',
            },
          };
        }),
      });
    }
    // A cluster value of this run's own: the runner claims this job and no other.
    const cluster = groupId;
    const job = await requestRedrive(
      db,
      source,
      { cluster, topic: settings.dlqTopic, ratePerSec: settings.ratePerSec },
      {
        selection: { kind: 'filter', filter: {} },
        reason: 'bench',
        expectedCount: settings.records,
        force: false,
      },
      'bench',
    );
    const batches: Array<{ atMs: number; sent: number; queries: number }> = [];
    const runner = new RedriveRunner({
      db,
      source,
      transport,
      clock: {
        now: () => Date.now(),
        setTimeout: (fn, ms) => setTimeout(fn, ms),
        clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
      },
      instanceId: `bench-${spec.workload}`,
      leaseMs: 15_000,
      cluster,
      onProgress: (progress) => {
        if (progress.status === 'running')
          batches.push({ atMs: epochNowMs(), sent: progress.sent, queries: queries.count() });
      },
    });
    const queriesBefore = queries.count();
    const startEpochMs = epochNowMs();
    if (!(await runner.round())) throw new Error('the runner found no job to run');
    const endEpochMs = epochNowMs();
    const done = await db.redriveJob.findUniqueOrThrow({ where: { id: BigInt(job.id) } });
    if (done.status !== 'done' || done.sent !== settings.records)
      throw new Error(`the job ended ${done.status} with ${done.sent} of ${settings.records} sent: ${done.outcome}`);
    const first = batches[0];
    const last = batches[batches.length - 1];
    if (!first || !last) throw new Error('the job ran no batch');
    const spacing = batches.slice(1).map((b, i) => b.atMs - batches[i]!.atMs);
    const steadyMs = last.atMs - first.atMs;
    const totalQueries = queries.count() - queriesBefore;
    return {
      records: settings.records,
      startEpochMs,
      endEpochMs,
      latency: summarizeLatency(spacing),
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
      baselineRssBytes,
      partitionDoneMs: [],
      details: {
        configuredRatePerSec: settings.ratePerSec,
        achievedRatePerSec: Math.round((settings.records * 1_000) / (endEpochMs - startEpochMs)),
        steadyRatePerSec: steadyMs > 0 ? Math.round(((last.sent - first.sent) * 1_000) / steadyMs) : null,
        batches: batches.length,
        meanBatchSize: Math.round(settings.records / batches.length),
        postgresRoundTrips: totalQueries,
        // Between the first and the last batch's Postgres write: exactly the later batches' own statements.
        postgresRoundTripsPerBatch:
          batches.length > 1 ? Number(((last.queries - first.queries) / (batches.length - 1)).toFixed(2)) : null,
        // The claim, the job's own reads and the first batch; the end of the job after the last.
        postgresRoundTripsToFirstBatch: first.queries - queriesBefore,
        firstBatchMs: Math.round(first.atMs - startEpochMs),
      },
    };
  } finally {
    await transport.close();
    await source.close();
    await producer.disconnect();
    await db.$disconnect();
  }
}
