import type { Admin, Kafka, Producer } from 'kafkajs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../../lib/db';
import type { RecordSource } from '../../lib/kafka/partition-records';
import { requestRedrive } from '../../lib/server/dead-letters/request-redrive';
import { createTopic, testKafka, uniqueName } from '../../test-support/integration';
import { connectKafkaDatabaseAndRecords } from '../../test-support/kafka-and-database';
import type { Clock } from '@warden/consumer';
import { RedriveRunner, type RedriveRunnerOptions } from './redrive-runner';
import { expectedOfs, readCommitted, writeDeadLetters } from './redrive-test-support';
import { kafkaRedriveTransport, type RedriveTransport } from './redrive-transport';

// A worker stalled past its lease at each point of a batch, made deterministic with the runner's and the
// transport's seams: before the batch's Kafka transaction, inside it (produced, not committed), and after its
// commit but before its Postgres write. Another runner, whose clock is past the lease, takes the job over and
// finishes it; then the stalled one resumes. A read_committed consumer of the target must see every selected
// record exactly once, and the job's counts in Postgres must be exact.

const kafka: Kafka = testKafka('warden-redrive-takeover-it');
let admin: Admin;
let db: Database;
let source: RecordSource;
let producer: Producer;
connectKafkaDatabaseAndRecords(kafka, (handles) => ({ admin, db, source, producer } = handles));

const transports: RedriveTransport[] = [];
afterAll(async () => {
  await Promise.all(transports.map((t) => t.close()));
});

const LEASE_MS = 60_000;
const RECORDS = 25;
/** Real time shifted by `skewMs`: a runner whose clock is past the first one's lease may take the job over. */
const clockAt = (skewMs: number): Clock => ({
  now: () => Date.now() + skewMs,
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
});

/** A promise the test settles itself, and one that settles when the stalled runner reached its stall. */
function stallPoint() {
  let reach!: () => void;
  let resume!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  const resumed = new Promise<void>((resolve) => (resume = resolve));
  return {
    reached,
    resume,
    stall: async () => {
      reach();
      await resumed;
    },
  };
}

async function setUp() {
  const prefix = uniqueName('takeover');
  const dlq = `${prefix}-dlq`;
  const origin = `${prefix}-orders`;
  await createTopic(admin, dlq, 1);
  await createTopic(admin, origin, 1);
  await writeDeadLetters(producer, dlq, origin, RECORDS);
  // One cluster value per test, so no other test's jobs are claimed.
  const cluster = prefix;
  const job = await requestRedrive(
    db,
    source,
    { cluster, topic: dlq, ratePerSec: 10_000 },
    { selection: { kind: 'filter', filter: {} }, reason: 'takeover test', expectedCount: RECORDS, force: false },
    'alice',
  );
  return { dlq, origin, cluster, jobId: BigInt(job.id) };
}

function transport(options: Parameters<typeof kafkaRedriveTransport>[1] = {}): RedriveTransport {
  const created = kafkaRedriveTransport(kafka, options);
  transports.push(created);
  return created;
}

function runner(
  cluster: string,
  instanceId: string,
  options: {
    transport?: RedriveTransport;
    skewMs?: number;
    beforeCommit?: RedriveRunnerOptions['beforeCommit'];
  } = {},
) {
  const fenced: bigint[] = [];
  const created = new RedriveRunner({
    db,
    source,
    transport: options.transport ?? transport(),
    clock: clockAt(options.skewMs ?? 0),
    instanceId,
    leaseMs: LEASE_MS,
    cluster,
    batchMax: 10,
    beforeCommit: options.beforeCommit,
    onFenced: (id) => fenced.push(id),
  });
  return Object.assign(created, { fenced });
}

async function expectExactlyOnce(dlq: string, origin: string, jobId: bigint) {
  const ofs = await readCommitted(kafka, producer, origin);
  expect([...ofs].sort()).toEqual(expectedOfs(dlq, RECORDS));
  const job = await db.redriveJob.findUniqueOrThrow({ where: { id: jobId } });
  expect(job).toMatchObject({ status: 'done', sent: RECORDS, skipped: 0, executedBy: 'worker-b' });
  expect(job.position).toEqual({ '0': String(RECORDS) });
  expect(await db.redrivenRecord.count({ where: { jobId, state: 'sent' } })).toBe(RECORDS);
}

describe('redrive takeover of a stalled worker', () => {
  it('stalled before its transaction: fenced when it resumes, nothing sent twice', async () => {
    const { dlq, origin, cluster, jobId } = await setUp();
    const point = stallPoint();
    const a = runner(cluster, 'worker-a', {
      beforeCommit: async ({ batch }) => {
        if (batch === 1) await point.stall();
      },
    });
    const aRound = a.round();
    await point.reached;
    expect((await db.redriveJob.findUniqueOrThrow({ where: { id: jobId } })).sent).toBe(10);

    // Within the lease the job stays with its worker: nobody else may take it.
    expect(await runner(cluster, 'worker-b').round()).toBe(false);
    expect(await runner(cluster, 'worker-b', { skewMs: LEASE_MS + 1_000 }).round()).toBe(true);
    point.resume();
    expect(await aRound).toBe(true);
    expect(a.fenced).toEqual([jobId]);
    await expectExactlyOnce(dlq, origin, jobId);
  });

  it('stalled inside its transaction: the takeover aborts it, and its commit is refused', async () => {
    const { dlq, origin, cluster, jobId } = await setUp();
    const point = stallPoint();
    let transactions = 0;
    const a = runner(cluster, 'worker-a', {
      transport: transport({
        afterProduce: async () => {
          transactions += 1;
          if (transactions === 2) await point.stall();
        },
      }),
    });
    const aRound = a.round();
    await point.reached;

    expect(await runner(cluster, 'worker-b', { skewMs: LEASE_MS + 1_000 }).round()).toBe(true);
    point.resume();
    expect(await aRound).toBe(true);
    expect(a.fenced).toEqual([jobId]);
    await expectExactlyOnce(dlq, origin, jobId);
    // The aborted batch is in the log: only a read_uncommitted reader sees its records.
    const [log] = (await source.partitionLogs(origin)) ?? [];
    const raw = await source.readRange(origin, 0, log!.low, log!.high, 10_000);
    expect(raw.filter((r) => r.value?.toString() !== 'sentinel')).toHaveLength(RECORDS + 10);
  });

  it('stalled after its commit, before its Postgres write: the batch is recorded from Kafka, not sent again', async () => {
    const { dlq, origin, cluster, jobId } = await setUp();
    // A second job over the same records, requested before the first ran: without force it skips them all.
    const overlapping = await requestRedrive(
      db,
      source,
      { cluster, topic: dlq, ratePerSec: 10_000 },
      { selection: { kind: 'filter', filter: {} }, reason: 'again', expectedCount: RECORDS, force: false },
      'bob',
    );
    const point = stallPoint();
    const real = transport();
    let commits = 0;
    const stallingAfterCommit: RedriveTransport = {
      ...real,
      open: async (job) => {
        const opened = await real.open(job);
        return {
          ...opened,
          producer: {
            close: () => opened.producer.close(),
            commit: async (sends, position) => {
              const results = await opened.producer.commit(sends, position);
              commits += 1;
              if (commits === 2) await point.stall();
              return results;
            },
          },
        };
      },
    };
    const a = runner(cluster, 'worker-a', { transport: stallingAfterCommit });
    const aRound = a.round();
    await point.reached;
    expect((await db.redriveJob.findUniqueOrThrow({ where: { id: jobId } })).sent).toBe(10);

    expect(await runner(cluster, 'worker-b', { skewMs: LEASE_MS + 1_000 }).round()).toBe(true);
    // The batch recorded from Kafka has no target offsets (yet); the others have theirs.
    expect(await db.redrivenRecord.count({ where: { jobId, targetOffset: null } })).toBe(10);
    point.resume();
    expect(await aRound).toBe(true);
    await expectExactlyOnce(dlq, origin, jobId);
    // The resumed worker's write adds them, and moves nothing else: the job is worker-b's.
    expect(await db.redrivenRecord.count({ where: { jobId, targetOffset: null } })).toBe(0);

    expect(await runner(cluster, 'worker-b').round()).toBe(true);
    const skipping = await db.redriveJob.findUniqueOrThrow({ where: { id: BigInt(overlapping.id) } });
    expect(skipping).toMatchObject({ status: 'done', sent: 0, skipped: RECORDS });
    expect([...(await readCommitted(kafka, producer, origin))].sort()).toEqual(expectedOfs(dlq, RECORDS));
  });
});
