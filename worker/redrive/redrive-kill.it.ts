import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Admin, Kafka, Producer } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { childProcessEnv } from '../../lib/config/program-config';
import type { Database } from '../../lib/db';
import type { RecordSource } from '../../lib/kafka/partition-records';
import { requestRedrive } from '../../lib/server/dead-letters/request-redrive';
import { createTopic, eventually, testKafka, uniqueName } from '../../test-support/integration';
import { connectKafkaDatabaseAndRecords } from '../../test-support/kafka-and-database';
import { seededRandom } from '../../test-support/seeded-random';
import { loadTestConfig } from '../../test-support/test-config';
import { expectedOfs, readCommitted, writeDeadLetters } from './redrive-test-support';

// Redrive workers killed with SIGKILL at random points of a job, each a process of its own running the
// runner (redrive-kill-child.ts): per iteration two are killed a random time after they start, then a third
// finishes the job. A read_committed consumer of the target must see every selected record exactly once.
// WARDEN_REDRIVE_KILL_SEED replays a run (its seed is printed); WARDEN_REDRIVE_KILL_ITERATIONS runs longer.

const kafka: Kafka = testKafka('warden-redrive-kill-it');
let admin: Admin;
let db: Database;
let source: RecordSource;
let producer: Producer;
connectKafkaDatabaseAndRecords(kafka, (handles) => ({ admin, db, source, producer } = handles));

const config = loadTestConfig();
const SEED = config.WARDEN_REDRIVE_KILL_SEED ?? Math.floor(Math.random() * 2_147_483_647);
const ITERATIONS = config.WARDEN_REDRIVE_KILL_ITERATIONS;
const RECORDS = 2_000;
const DLQ_PARTITIONS = 2;
const RATE_PER_SEC = 1_500;
const LEASE_MS = 1_000;
/** A kill comes this long at most after the child says it is ready: a whole job takes about 1.5 s. */
const KILL_WITHIN_MS = 1_200;
const ROOT = path.resolve(__dirname, '..', '..');

function startChild(args: { cluster: string; instanceId: string; jobId: string }): {
  child: ChildProcess;
  ready: Promise<void>;
  exited: Promise<number | null>;
  output: () => string;
} {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'worker/redrive/redrive-kill-child.ts', JSON.stringify({ ...args, leaseMs: LEASE_MS })],
    { cwd: ROOT, env: childProcessEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready')) resolve();
    });
    child.once('exit', () => reject(new Error(`the child exited before it was ready:\n${output}`)));
  });
  ready.catch(() => undefined);
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, ready, exited, output: () => output };
}

/** SIGKILL to the child's process group; one that exited meanwhile (ESRCH) is left be. */
function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

describe('redrive under kill -9', () => {
  it(
    `sends every record exactly once for read_committed readers across random kills (seed ${SEED})`,
    async () => {
      console.log(
        `redrive kill -9: seed ${SEED}, ${ITERATIONS} iteration(s); WARDEN_REDRIVE_KILL_SEED=${SEED} replays it`,
      );
      const random = seededRandom(SEED);
      for (let iteration = 0; iteration < ITERATIONS; iteration++) {
        const prefix = uniqueName('redrive-kill');
        const dlq = `${prefix}-dlq`;
        const origin = `${prefix}-orders`;
        await createTopic(admin, dlq, DLQ_PARTITIONS);
        await createTopic(admin, origin, 3);
        await writeDeadLetters(producer, dlq, origin, RECORDS, DLQ_PARTITIONS);
        const cluster = prefix;
        const job = await requestRedrive(
          db,
          source,
          { cluster, topic: dlq, ratePerSec: RATE_PER_SEC },
          { selection: { kind: 'filter', filter: {} }, reason: 'kill test', expectedCount: RECORDS, force: false },
          'alice',
        );
        const kills: string[] = [];
        for (let k = 0; k < 2; k++) {
          const started = startChild({ cluster, instanceId: `doomed-${iteration}-${k}`, jobId: job.id });
          await started.ready;
          const delayMs = Math.floor(random() * KILL_WITHIN_MS);
          await new Promise((resolve) => setTimeout(resolve, delayMs));
          // A child that found the job done has exited by itself.
          const alive = started.child.exitCode === null && started.child.signalCode === null;
          if (alive) killGroup(started.child);
          await started.exited;
          const row = await db.redriveJob.findUniqueOrThrow({ where: { id: BigInt(job.id) } });
          kills.push(`${delayMs} ms: ${alive ? '' : 'exited before, '}${row.status}, sent ${row.sent}`);
        }
        const last = startChild({ cluster, instanceId: `survivor-${iteration}`, jobId: job.id });
        const code = await Promise.race([
          last.exited,
          new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 60_000)),
        ]);
        if (code === 'timeout') killGroup(last.child);
        expect(code, last.output()).toBe(0);

        const ofs = await readCommitted(kafka, producer, origin);
        const done = await db.redriveJob.findUniqueOrThrow({ where: { id: BigInt(job.id) } });
        console.log(
          `redrive kill -9, iteration ${iteration}: killed after ${kills.join('; ')}; ` +
            `read_committed saw ${ofs.length} records, ${new Set(ofs).size} distinct; job sent ${done.sent}`,
        );
        expect([...ofs].sort()).toEqual(expectedOfs(dlq, RECORDS, DLQ_PARTITIONS));
        expect(done).toMatchObject({ status: 'done', sent: RECORDS, skipped: 0 });
        await eventually('the ledger complete', async () =>
          (await db.redrivenRecord.count({ where: { jobId: BigInt(job.id) } })) === RECORDS ? true : undefined,
        );
      }
    },
    60_000 + ITERATIONS * 60_000,
  );
});
