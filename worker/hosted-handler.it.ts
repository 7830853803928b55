import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import { loadTestConfig } from '../test-support/test-config';
import type { Database } from '../lib/db';
import { committedOffsets, createTopic, eventually, testKafka, uniqueName } from '../test-support/integration';
import { connectKafkaAndDatabase } from '../test-support/kafka-and-database';
import { WorkerProcess } from '../scripts/lib/worker-process';

// The worker process hosting a team's handler module (WARDEN_HANDLER_MODULE) instead of the document pipeline:
// the module's handler runs on every admitted record, its admission quarantines what it refuses (reported over
// the control plane like any consumer), and a module that cannot be hosted stops the start with exit code 2.

const kafka = testKafka('warden-hosted-it');
let admin: Admin;
let db: Database;
connectKafkaAndDatabase(kafka, (handles) => ({ admin, db } = handles));

const dir = mkdtempSync(path.join(tmpdir(), 'warden-hosted-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A TypeScript module as a team would write it: JSON in, one line per handled record out. */
const HANDLER_SOURCE = `import { appendFileSync } from 'node:fs';

export function admit(record: { value: Buffer | null }) {
  const text = record.value?.toString('utf8') ?? '';
  try {
    return { ok: true as const, value: JSON.parse(text) as { n: number }, orderingKey: null };
  } catch {
    return { ok: false as const, reason: 'not JSON', errorClass: 'malformed' };
  }
}

export async function handle(value: { n: number }, record: { partition: number; offset: string }) {
  appendFileSync(process.env.HOSTED_HANDLED_FILE as string, \`\${record.partition}:\${record.offset}:\${value.n}\\n\`);
}

export const ordering = 'partition';
`;

function workerEnv(prefix: string, modulePath: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    WARDEN_GROUP_ID: `${prefix}-group`,
    WARDEN_INPUT_TOPIC: `${prefix}-in`,
    WARDEN_RESULTS_TOPIC: `${prefix}-results`,
    WARDEN_DLQ_TOPIC: `${prefix}-dlq`,
    WARDEN_INPUT_PARTITIONS: '2',
    WARDEN_HANDLER_MODULE: modulePath,
    WARDEN_CONTROL_TOPIC_PREFIX: `${prefix}-control`,
    WORKER_PORT: String(loadTestConfig().WORKER_PORT + 9),
    SAMPLER_GROUP_INCLUDE: '^$',
    SAMPLE_INTERVAL_MS: '60000',
    ...extra,
  };
}

/** Starts a worker that must refuse to start; returns its exit code and output. */
async function refusedStart(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const worker = new WorkerProcess(env);
  await worker.start(false);
  await eventually('the worker to exit', async () => (worker.pid === null ? true : undefined), 60_000);
  const code = await worker.stop();
  return { code, output: worker.output };
}

describe('a hosted handler module', () => {
  it('runs the module on every admitted record and quarantines what its admission refuses', async () => {
    const prefix = uniqueName('hosted');
    const topic = `${prefix}-in`;
    await createTopic(admin, topic, 2);
    const handledFile = path.join(dir, `${prefix}.log`);
    writeFileSync(handledFile, '');
    const modulePath = path.join(dir, `${prefix}-handler.ts`);
    writeFileSync(modulePath, HANDLER_SOURCE);
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({
      topic,
      acks: -1,
      messages: [
        ...Array.from({ length: 5 }, (_, n) => ({ partition: 0, value: JSON.stringify({ n }) })),
        { partition: 1, value: JSON.stringify({ n: 10 }) },
        { partition: 1, value: JSON.stringify({ n: 11 }) },
        { partition: 1, value: 'not json at all' },
        { partition: 1, value: JSON.stringify({ n: 13 }) },
      ],
    });
    await producer.disconnect();

    const worker = new WorkerProcess(workerEnv(prefix, modulePath, { HOSTED_HANDLED_FILE: handledFile }));
    try {
      await worker.start();
      expect(worker.output).toContain('hosting a handler module');
      const held = await eventually('the hold reported through the control plane', () =>
        db.partitionQuarantine
          .findFirst({ where: { groupId: `${prefix}-group`, topic, partition: 1 } })
          .then((row) => row ?? undefined),
      );
      expect(held).toMatchObject({ offset: 2n, reason: 'not JSON', errorClass: 'malformed' });
      expect(held.heldBy).toMatch(/@.+\/\d+$/);
      const committed = await eventually('partition 0 committed to its end', async () => {
        const offsets = await committedOffsets(admin, `${prefix}-group`, topic);
        return offsets.get(0) === '5' ? offsets : undefined;
      });
      expect(committed.get(1)).toBe('2');
      const handled = readFileSync(handledFile, 'utf8').trim().split('\n').sort();
      expect(handled).toEqual(['0:0:0', '0:1:1', '0:2:2', '0:3:3', '0:4:4', '1:0:10', '1:1:11']);
    } finally {
      expect(await worker.stop()).toBe(0);
    }
  });

  it('stops the start with exit code 2, naming the module, when it is missing or has the wrong shape', async () => {
    const prefix = uniqueName('hosted-bad');
    const missing = await refusedStart(workerEnv(prefix, path.join(dir, 'no-such-handler.ts')));
    expect(missing.code).toBe(2);
    expect(missing.output).toContain(`WARDEN_HANDLER_MODULE=${path.join(dir, 'no-such-handler.ts')}: no such file`);

    const wrongPath = path.join(dir, `${prefix}-wrong.ts`);
    writeFileSync(wrongPath, 'export async function handle() {}\nexport async function handleBatch() { return []; }\n');
    const wrong = await refusedStart(workerEnv(prefix, wrongPath));
    expect(wrong.code).toBe(2);
    expect(wrong.output).toContain(
      `WARDEN_HANDLER_MODULE=${wrongPath} is not a handler module: admit must be a function (got nothing); export exactly one of handle and handleBatch (found both)`,
    );
  });
});
