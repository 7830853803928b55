import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Admin } from 'kafkajs';
import { ensureTopics } from '../../worker/kafka/topics';
import type { LocalCluster } from '../lib/cluster';
import { eventually } from '../../test-support/eventually';
import { uniqueName } from '../../test-support/unique-name';
import { longestStops, type FaultMark, type FaultStall, type ProgressSample } from './stalls';

// Kafka's own VerifiableProducer and VerifiableConsumer (kafka-tools jar) through the same fault as the
// leader-kill scenario, on the same cluster: the producer prints every acknowledged send, the consumer
// (--verbose) every record it read; an acknowledged record the consumer never read is lost. Their counts
// sit beside Warden's, so a reader sees the cluster and the method are sound and the numbers are Warden's own.

/** The tools' counts: acked and consumed are distinct partition/offset positions. */
export interface VerifiableToolsTally {
  attempted: number;
  acked: number;
  sendErrors: number;
  consumed: number;
  /** Acknowledged records the consumer never read. Must be 0. */
  lost: string[];
  /** Records read more than once (redeliveries after the fault). */
  duplicates: number;
}

export interface VerifiableToolsReport {
  scenario: 'kafka-tools-leader-kill';
  passed: boolean;
  seconds: number;
  tally: VerifiableToolsTally;
  faults: FaultStall[];
  notes: string[];
}

type ToolEvent = { name?: string; partition?: number; offset?: number; value?: string; exception?: string };

/** Tallies the tools' JSON event lines (one object a line; other lines are ignored). */
export function tallyVerifiableTools(
  producerEvents: readonly ToolEvent[],
  consumerEvents: readonly ToolEvent[],
): VerifiableToolsTally {
  const position = (e: ToolEvent) => `${e.partition}/${e.offset}`;
  const acked = new Set(producerEvents.filter((e) => e.name === 'producer_send_success').map(position));
  const sendErrors = producerEvents.filter((e) => e.name === 'producer_send_error').length;
  const reads = consumerEvents.filter((e) => e.name === 'record_data').map(position);
  const consumed = new Set(reads);
  return {
    attempted: acked.size + sendErrors,
    acked: acked.size,
    sendErrors,
    consumed: consumed.size,
    lost: [...acked].filter((p) => !consumed.has(p)),
    duplicates: reads.length - consumed.size,
  };
}

/** Parses one line of a tool's stdout; lines that are not a JSON object come back as null. */
export function parseToolLine(line: string): ToolEvent | null {
  if (!line.startsWith('{')) return null;
  try {
    const parsed = JSON.parse(line) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as ToolEvent) : null;
  } catch {
    return null;
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runVerifiableTools(options: {
  cluster: LocalCluster;
  admin: Admin;
  messages: number;
  partitions: number;
  log: (line: string) => void;
}): Promise<VerifiableToolsReport> {
  const { cluster, admin, log } = options;
  const started = Date.now();
  const runId = uniqueName('verify-kafka-tools');
  const topic = `${runId}-in`;
  const notes: string[] = [];
  const marks: FaultMark[] = [];
  const samples: ProgressSample[] = [];
  await ensureTopics(admin, [{ topic, numPartitions: options.partitions }]);
  // The same producer guarantees Warden's producers use: idempotent, acks=all.
  const producerConfig = path.join(os.tmpdir(), `${runId}-producer.properties`);
  // VerifiableProducer sets retries=0 unless told otherwise, which the idempotent producer refuses.
  writeFileSync(producerConfig, 'enable.idempotence=true\nacks=all\nretries=2147483647\ndelivery.timeout.ms=120000\n');
  const bootstrap = cluster.brokers.join(',');
  log(
    `verify kafka-tools-leader-kill: VerifiableProducer → ${topic} (${options.messages} records), VerifiableConsumer`,
  );

  const consumerEvents: ToolEvent[] = [];
  const producerEvents: ToolEvent[] = [];
  const consumer = cluster.spawnTool([
    'org.apache.kafka.tools.VerifiableConsumer',
    '--bootstrap-server',
    bootstrap,
    '--topic',
    topic,
    '--group-id',
    `${runId}-group`,
    '--reset-policy',
    'earliest',
    '--verbose',
  ]);
  const consumed = new Set<string>();
  createInterface({ input: consumer.stdout }).on('line', (line) => {
    const event = parseToolLine(line);
    if (!event) return;
    consumerEvents.push(event);
    if (event.name === 'record_data') consumed.add(`${event.partition}/${event.offset}`);
  });
  const consumerExit = new Promise<void>((resolve) => consumer.on('close', () => resolve()));
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      samples.push({ atMs: Date.now(), handled: consumed.size });
      await pause(250);
    }
  })();

  try {
    await eventually(
      'the VerifiableConsumer joined its group',
      async () => (consumerEvents.some((e) => e.name === 'partitions_assigned') ? true : undefined),
      120_000,
    );
    const producer = cluster.spawnTool([
      'org.apache.kafka.tools.VerifiableProducer',
      '--bootstrap-server',
      bootstrap,
      '--topic',
      topic,
      '--max-messages',
      String(options.messages),
      '--throughput',
      '500',
      '--producer.config',
      producerConfig,
    ]);
    createInterface({ input: producer.stdout }).on('line', (line) => {
      const event = parseToolLine(line);
      if (event) producerEvents.push(event);
    });
    let producerErrors = '';
    producer.stderr.on('data', (chunk: Buffer) => (producerErrors = (producerErrors + chunk.toString()).slice(-2_000)));
    let producerCode: number | null | undefined;
    const producerExit = new Promise<number | null>((resolve) =>
      producer.on('close', (code) => resolve((producerCode = code))),
    );
    const acked = () => producerEvents.filter((e) => e.name === 'producer_send_success').length;
    await eventually(
      '30% acknowledged',
      async () => {
        if (acked() >= options.messages * 0.3) return true;
        if (producerCode !== undefined)
          throw new Error(`VerifiableProducer exited ${producerCode}: ${producerErrors.trim().slice(-500)}`);
        return undefined;
      },
      300_000,
      { rethrow: (error) => String(error).includes('VerifiableProducer exited') },
    );
    const leader = await cluster.waitForLeader(admin, topic, 0);
    log(`verify kafka-tools-leader-kill: kill -9 of node ${leader} (leader of ${topic}[0])`);
    marks.push({ fault: `kill -9 of node ${leader} (leader of ${topic}[0])`, atMs: Date.now() });
    await cluster.killNode(leader);
    await pause(5_000);
    marks.push({ fault: `node ${leader} restarted`, atMs: Date.now() });
    await cluster.startNode(leader);
    const code = await producerExit;
    if (code !== 0) notes.push(`VerifiableProducer exited ${code}`);
    // Every acknowledged record must reach the consumer; no progress for 60 s ends the wait.
    const ackedPositions = producerEvents
      .filter((e) => e.name === 'producer_send_success')
      .map((e) => `${e.partition}/${e.offset}`);
    let last = { at: Date.now(), count: -1 };
    while (!ackedPositions.every((p) => consumed.has(p))) {
      if (consumed.size > last.count) last = { at: Date.now(), count: consumed.size };
      else if (Date.now() - last.at > 60_000) break;
      await pause(500);
    }
  } catch (error) {
    notes.push(`scenario failed: ${(error as Error).message}`);
  } finally {
    if (consumer.pid !== undefined && consumer.exitCode === null) process.kill(-consumer.pid, 'SIGTERM');
    await consumerExit;
    sampling = false;
    await sampler;
  }
  const tally = tallyVerifiableTools(producerEvents, consumerEvents);
  if (tally.lost.length > 0)
    notes.push(`acknowledged but never consumed, for example: ${tally.lost.slice(0, 5).join(', ')}`);
  const faults = longestStops(samples, marks, started, Date.now(), tally.acked);
  const passed = tally.lost.length === 0 && tally.acked > 0 && !notes.some((n) => n.startsWith('scenario failed'));
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  log(`verify kafka-tools-leader-kill: ${passed ? 'PASS' : 'FAIL'} in ${seconds} s`);
  return { scenario: 'kafka-tools-leader-kill', passed, seconds, tally, faults, notes };
}
