import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin, Consumer, Kafka } from 'kafkajs';
import { childProcessEnv } from '../../lib/config/program-config';
import type { Database } from '../../lib/db';
import { ClusterReader } from '../../lib/kafka/cluster-reader';
import { DEFAULT_CLUSTER } from '../../lib/kafka/cluster-settings';
import { formatDuration, retentionRisk, type RetentionRisk } from '../../lib/lag/retention-risk';
import { commitOffsets } from '../../test-support/commit-offsets';
import { testDatabase } from '../../test-support/database';
import { eventually, testKafka, uniqueName } from '../../test-support/integration';
import { parsePrometheusText } from '../../test-support/prometheus-text';
import { loadTestConfig } from '../../test-support/test-config';
import { WorkerMetrics } from '../metrics/worker-metrics';
import { LagSampler } from './lag-sampler';
import type { LagSampleRow } from './sampler-state';
import { settingsFromRow } from '../../lib/groups/load-retention';
import { positionFromSample } from './topic-settings';

// Retention on the real broker (npm test's, which checks retention every 5 s: scripts/kafka/broker.sh), with
// topics kept for seconds or a few MiB. A group stops; the sampler's rounds store its rows and its topic's
// settings; the retention rule over what is stored gives the window, which counts down; Kafka deletes; the
// loss is recorded with the range Kafka's own tools show (GetOffsetShell --time -2 for the log start,
// kafka-consumer-groups --describe for the committed offset); a consumer that resets ends it. Each test
// prints the window predicted when the group stopped beside the moment the log start passed it.

const config = loadTestConfig();
const kafka = testKafka('warden-retention-it');
const brokers = config.kafkaBrokers.join(',');
const BROKER_SCRIPT = path.resolve(__dirname, '..', '..', 'scripts', 'kafka', 'broker.sh');
const execFileAsync = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs a class of the broker's jars (broker.sh tool) and returns what it printed. */
async function kafkaTool(args: string[]): Promise<string> {
  const { stdout } = await execFileAsync('bash', [BROKER_SCRIPT, 'tool', ...args], {
    env: childProcessEnv({
      WARDEN_KAFKA_HOME: config.WARDEN_KAFKA_HOME,
      WARDEN_KAFKA_PORT: String(config.WARDEN_KAFKA_PORT),
      WARDEN_KAFKA_CONTROLLER_PORT: String(config.WARDEN_KAFKA_CONTROLLER_PORT),
    }),
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

/** The log start of partition 0 as Kafka's GetOffsetShell reads it (--time -2: earliest). */
async function logStartByTool(topic: string): Promise<bigint> {
  const out = await kafkaTool([
    'org.apache.kafka.tools.GetOffsetShell',
    '--bootstrap-server',
    brokers,
    '--topic',
    topic,
    '--partitions',
    '0',
    '--time',
    '-2',
  ]);
  const line = out.split('\n').find((l) => l.trim().startsWith(`${topic}:0:`));
  if (line === undefined) throw new Error(`GetOffsetShell printed no offset of ${topic}:0: ${out}`);
  return BigInt(line.trim().slice(`${topic}:0:`.length));
}

/** The group's committed offset of partition 0 as kafka-consumer-groups --describe shows it (CURRENT-OFFSET). */
async function committedByTool(groupId: string, topic: string): Promise<bigint> {
  const out = await kafkaTool([
    'org.apache.kafka.tools.consumer.group.ConsumerGroupCommand',
    '--bootstrap-server',
    brokers,
    '--describe',
    '--group',
    groupId,
  ]);
  const columns = out
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .find((c) => c[0] === groupId && c[1] === topic && c[2] === '0');
  if (columns === undefined || !/^\d+$/.test(columns[3] ?? ''))
    throw new Error(`kafka-consumer-groups shows no committed offset of ${topic}:0: ${out}`);
  return BigInt(columns[3]!);
}

/** One round, seen twice: what the sampler computed, and the retention rule over what it stored. */
interface Observation {
  atMs: number;
  row: LagSampleRow;
  /** Seconds from the round, as the gauge exported it; null when absent. */
  gaugeSeconds: number | null;
  stored: RetentionRisk;
}

describe.runIf(config.WARDEN_KAFKA_HOME !== undefined)('retention on the bundled broker', () => {
  const prefix = uniqueName('retention');
  let admin: Admin;
  let db: Database;
  let sampler: LagSampler;
  let metrics: WorkerMetrics;
  const consumers: Consumer[] = [];
  const producers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    admin = kafka.admin();
    await admin.connect();
    db = testDatabase();
    metrics = new WorkerMetrics({
      snapshot: () => null,
      samplerLeaders: () => [{ cluster: DEFAULT_CLUSTER, leader: true }],
      defaultMetrics: false,
    });
    sampler = new LagSampler({
      cluster: DEFAULT_CLUSTER,
      reader: new ClusterReader({
        kafka,
        ownGroupId: 'warden-unrelated',
        include: new RegExp(`^${prefix}`),
        exclude: null,
      }),
      db,
      lock: null,
      instanceId: 'retention-it',
      intervalMs: 1_000,
      maxBackoffMs: 2_000,
      // A short rate window: a group that stops shows a consumption rate of 0 within 3 s.
      state: {
        timeLagPoints: 600,
        timeLagSpacingMs: 0,
        rateWindowMs: 3_000,
        exactTimeLagIntervalMs: 0,
        exactTimeLagMaxPartitions: 100,
      },
      retention: { rawDays: 7, rollupDays: 90 },
      onRound: (outcome) => metrics.onSamplerRound(DEFAULT_CLUSTER, outcome),
    });
  });

  afterAll(async () => {
    await Promise.all(producers.map((stop) => stop().catch(() => undefined)));
    await Promise.all(consumers.map((c) => c.disconnect().catch(() => undefined)));
    await sampler?.stop();
    await admin?.disconnect();
    await db?.$disconnect();
  });

  async function createTopicWith(topic: string, configs: Record<string, string>): Promise<void> {
    await admin.createTopics({
      topics: [
        {
          topic,
          numPartitions: 1,
          replicationFactor: 1,
          configEntries: Object.entries(configs).map(([name, value]) => ({ name, value })),
        },
      ],
      waitForLeaders: false,
    });
    await eventually(`a leader for ${topic}`, async () => {
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
      return topics[0]?.partitions.every((p) => p.leader >= 0) && topics[0].partitions.length === 1 ? true : undefined;
    });
  }

  /** Sends `batch()` every `everyMs` until the returned stop is called (which waits for the last send). */
  async function produceEvery(
    client: Kafka,
    topic: string,
    everyMs: number,
    batch: (n: number) => Array<{ key?: string; value: string | Buffer }>,
  ): Promise<() => Promise<void>> {
    const producer = client.producer();
    await producer.connect();
    let running = true;
    const loop = (async () => {
      for (let n = 0; running; n++) {
        await producer.send({ topic, acks: -1, messages: batch(n) });
        await sleep(everyMs);
      }
    })();
    const stop = async () => {
      running = false;
      await loop;
      await producer.disconnect();
    };
    producers.push(stop);
    return stop;
  }

  /** One round as the group's partition 0 shows it; null while the round has no row of it (a group not joined yet). */
  async function tryObserve(groupId: string, topic: string): Promise<Observation | null> {
    const result = await sampler.sampleOnce();
    const row = result.rows.find((r) => r.groupId === groupId && r.topic === topic && r.partition === 0);
    if (row === undefined) return null;
    const sample = await db.lagSample.findFirst({
      where: { cluster: DEFAULT_CLUSTER, groupId, topic, partition: 0 },
      orderBy: { sampledAt: 'desc' },
    });
    const settings = await db.topicRetention.findUnique({
      where: { cluster_topic: { cluster: DEFAULT_CLUSTER, topic } },
    });
    if (sample === null || settings === null) return null;
    const gauge = parsePrometheusText(await metrics.render()).find('warden_group_retention_deletion_earliest_seconds', {
      group: groupId,
      topic,
    });
    return {
      atMs: sample.sampledAt.getTime(),
      row,
      gaugeSeconds: gauge[0]?.value ?? null,
      stored: retentionRisk(settingsFromRow(settings), positionFromSample(sample)),
    };
  }

  async function observe(groupId: string, topic: string): Promise<Observation> {
    const o = await tryObserve(groupId, topic);
    if (o === null) throw new Error(`the round has no row of ${groupId} on ${topic}, or nothing of it is stored`);
    return o;
  }

  /** Rounds about once a second until `until` holds (it sees every observation, in order). */
  async function observeUntil(
    what: string,
    groupId: string,
    topic: string,
    until: (o: Observation) => boolean,
    timeoutMs: number,
  ): Promise<Observation[]> {
    const seen: Observation[] = [];
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const started = Date.now();
      const o = await tryObserve(groupId, topic);
      if (o !== null) seen.push(o);
      if (o !== null && until(o)) return seen;
      if (Date.now() > deadline) {
        if (o === null)
          throw new Error(`timed out waiting for ${what}: the rounds have no row of ${groupId} on ${topic}`);
        const last = o.row;
        throw new Error(
          `timed out waiting for ${what}: committed ${last.committedOffset}, log ${last.logStartOffset}..${last.logEndOffset}, risk ${JSON.stringify(o.stored, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`,
        );
      }
      await sleep(Math.max(0, 1_000 - (Date.now() - started)));
    }
  }

  const lost = (o: Observation) =>
    o.row.committedOffset !== null && o.row.committedOffset >= 0n && o.row.committedOffset < o.row.logStartOffset;

  async function lossesOf(groupId: string) {
    return db.recordLoss.findMany({ where: { cluster: DEFAULT_CLUSTER, groupId }, orderBy: { id: 'asc' } });
  }

  const clock = (ms: number) => new Date(ms).toISOString().slice(11, 23);

  function report(
    name: string,
    stoppedAt: number,
    prediction: Observation,
    before: Observation,
    after: Observation,
    committed: bigint,
  ): void {
    const risk = prediction.stored as Extract<RetentionRisk, { kind: 'at-risk' }>;
    const earliest = prediction.atMs + (risk.earliestMs ?? 0);
    const latest = prediction.atMs + (risk.latestMs ?? 0);
    console.log(
      [
        `${name}: the group stopped at ${clock(stoppedAt)} with committed offset ${committed}.`,
        `  predicted at ${clock(prediction.atMs)} (${formatDuration(prediction.atMs - stoppedAt)} after the stop): ` +
          `deleted from ${clock(earliest)} (in ${formatDuration(risk.earliestMs ?? 0)}) to ${clock(latest)} (in ${formatDuration(risk.latestMs ?? 0)}) [${risk.basis}]`,
        `  actual: the log start passed ${committed} between ${clock(before.atMs)} and ${clock(after.atMs)} ` +
          `(log start ${after.row.logStartOffset}), ${((after.atMs - earliest) / 1000).toFixed(1)} s after the predicted earliest, ` +
          `${((latest - before.atMs) / 1000).toFixed(1)} s before the predicted latest`,
      ].join('\n'),
    );
  }

  it('a stopped consumer of a 20 s topic: a window that counts down, then the loss as Kafka counts it, ended by a reset', async () => {
    const topic = `${prefix}-time`;
    const groupId = `${prefix}-time-group`;
    await createTopicWith(topic, { 'retention.ms': '20000', 'segment.ms': '2000' });
    const stopProducing = await produceEvery(kafka, topic, 100, (n) => [{ value: `r${n}` }]);
    const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 100, sessionTimeout: 10_000, heartbeatInterval: 500 });
    consumers.push(consumer);
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({ autoCommitInterval: 100, eachMessage: async () => undefined });
    await observeUntil(
      'the consumer to read along',
      groupId,
      topic,
      (o) => o.row.groupState === 'Stable' && (o.row.consumptionRatePerSec ?? 0) > 0,
      60_000,
    );

    await consumer.disconnect();
    const stoppedAt = Date.now();
    // Records keep arriving for 4 s, then the topic is idle: its last segment expires too.
    setTimeout(() => void stopProducing(), 4_000);
    const untilLoss = await observeUntil('the log start to pass the committed offset', groupId, topic, lost, 60_000);
    const windows = untilLoss.filter(
      (o) => o.stored.kind === 'at-risk' && o.row.consumptionRatePerSec === 0 && !lost(o),
    );
    expect(windows.length).toBeGreaterThanOrEqual(3);
    const prediction = windows[0]!;
    const first = prediction.stored as Extract<RetentionRisk, { kind: 'at-risk' }>;
    expect(first).toMatchObject({ kind: 'at-risk', rules: ['time'], alsoCompacted: false });
    expect(first.basis).toMatch(/^time retention: oldest unread record \d+ s old of 20 s, ageing 1 s per second/);
    // Nothing read: the window is one segment (2 s) and one retention check (5 s, read from the broker) wide.
    expect(first.latestMs! - first.earliestMs!).toBe(7_000);
    // The gauge says what the round computed (the same rule over the same row, before it was stored).
    expect(prediction.gaugeSeconds).toBeCloseTo(first.earliestMs! / 1_000, 1);
    // It counts down: every later round gives the same moment, a round's time closer (until the moment is
    // reached: from then on, "at any moment").
    for (const later of windows.slice(1)) {
      const risk = later.stored as Extract<RetentionRisk, { kind: 'at-risk' }>;
      if (risk.earliestMs === 0) {
        expect(later.atMs).toBeGreaterThanOrEqual(prediction.atMs + first.earliestMs!);
        continue;
      }
      expect(Math.abs(later.atMs + risk.earliestMs! - (prediction.atMs + first.earliestMs!))).toBeLessThanOrEqual(5);
      expect(risk.earliestMs!).toBeLessThan(first.earliestMs!);
    }

    const after = untilLoss[untilLoss.length - 1]!;
    const before = untilLoss[untilLoss.length - 2]!;
    const committed = after.row.committedOffset!;
    report('20 s retention (time)', stoppedAt, prediction, before, after, committed);
    // Kafka cannot delete the record before the earliest, and has by the latest (plus a round of slack).
    expect(after.atMs).toBeGreaterThanOrEqual(prediction.atMs + first.earliestMs!);
    expect(before.atMs).toBeLessThanOrEqual(prediction.atMs + first.latestMs! + 1_000);
    expect(after.stored).toEqual({
      kind: 'lost',
      fromOffset: committed,
      toOffset: after.row.logStartOffset - 1n,
      count: after.row.logStartOffset - committed,
    });
    const [detected] = await lossesOf(groupId);
    expect(detected).toMatchObject({
      topic,
      partition: 0,
      fromOffset: committed,
      toOffset: after.row.logStartOffset - 1n,
      count: after.row.logStartOffset - committed,
      basis: 'below-log-start',
      detectedAt: new Date(after.atMs),
      endedAt: null,
    });

    // The idle topic's last segment expires too: the episode grows to every record the group never read.
    const all = await observeUntil(
      'every record to be deleted',
      groupId,
      topic,
      (o) => o.row.logStartOffset === o.row.logEndOffset,
      60_000,
    );
    const logEnd = all[all.length - 1]!.row.logEndOffset;
    expect(await logStartByTool(topic)).toBe(logEnd);
    expect(await committedByTool(groupId, topic)).toBe(committed);
    const losses = await lossesOf(groupId);
    expect(losses).toHaveLength(1);
    expect(losses[0]).toMatchObject({ fromOffset: committed, toOffset: logEnd - 1n, count: logEnd - committed });
    expect(losses[0]!.updatedAt.getTime()).toBeGreaterThanOrEqual(losses[0]!.detectedAt.getTime());
    const scraped = parsePrometheusText(await metrics.render());
    expect(scraped.sum('warden_records_lost_total', { group: groupId, topic, partition: '0' })).toBe(
      Number(logEnd - committed),
    );
    console.log(
      `  the loss as recorded: offsets ${committed}–${logEnd - 1n} (${logEnd - committed} records); GetOffsetShell --time -2: ${logEnd}, kafka-consumer-groups CURRENT-OFFSET: ${committed}`,
    );

    // A consumer that resets (its offset is out of range: fromBeginning takes the earliest) ends the episode.
    const resumed = kafka.consumer({ groupId, maxWaitTimeInMs: 100, sessionTimeout: 10_000, heartbeatInterval: 500 });
    consumers.push(resumed);
    await resumed.connect();
    await resumed.subscribe({ topic, fromBeginning: true });
    await resumed.run({ autoCommitInterval: 100, eachMessage: async () => undefined });
    const stopAgain = await produceEvery(kafka, topic, 200, (n) => [{ value: `again${n}` }]);
    await observeUntil(
      'the reset group to be past the log start',
      groupId,
      topic,
      (o) => (o.row.committedOffset ?? -1n) > logEnd,
      60_000,
    );
    await stopAgain();
    const ended = await lossesOf(groupId);
    expect(ended).toHaveLength(1);
    expect(ended[0]!.endedAt).not.toBeNull();
    expect(ended[0]!.count).toBe(logEnd - committed);
  });

  it("a byte-limited topic's window is judged by size; the loss matches Kafka's tools; a reset ends it", async () => {
    const topic = `${prefix}-size`;
    const groupId = `${prefix}-size-group`;
    const MiB = 1_048_576;
    await createTopicWith(topic, {
      'retention.ms': '-1',
      'retention.bytes': String(2 * MiB),
      'segment.bytes': String(MiB), // Kafka's smallest
    });
    await commitOffsets(kafka, groupId, topic, [{ partition: 0, offset: '0' }]);
    const stoppedAt = Date.now();
    // About 200 KB/s in batches of five 4,000-byte records.
    const value = Buffer.alloc(4_000, 'x');
    const stopProducing = await produceEvery(kafka, topic, 100, (n) =>
      Array.from({ length: 5 }, (_, i) => ({ key: `k${n}-${i}`, value })),
    );
    const untilLoss = await observeUntil('the log start to pass offset 0', groupId, topic, lost, 90_000);
    await stopProducing();
    const windows = untilLoss.filter((o) => o.stored.kind === 'at-risk' && !lost(o));
    expect(windows.length).toBeGreaterThanOrEqual(3);
    expect(windows.every((o) => (o.stored as { rules: string[] }).rules.join() === 'size')).toBe(true);
    // The first window once the rate window (3 s) holds only steady production.
    const prediction = windows.find((o) => o.atMs >= stoppedAt + 4_000) ?? windows[windows.length - 1]!;
    const first = prediction.stored as Extract<RetentionRisk, { kind: 'at-risk' }>;
    expect(first.rules).toEqual(['size']);
    expect(first.basis).toMatch(
      /^size retention: .* unread of 2\.0 MiB kept per partition \(records of about 40\d\d B, segments of 1\.0 MiB\), growing/,
    );
    const after = untilLoss[untilLoss.length - 1]!;
    const before = untilLoss[untilLoss.length - 2]!;
    report('2 MiB retention (size)', stoppedAt, prediction, before, after, 0n);
    // The rates are estimates: two seconds of slack on either side.
    expect(after.atMs).toBeGreaterThanOrEqual(prediction.atMs + first.earliestMs! - 2_000);
    expect(before.atMs).toBeLessThanOrEqual(prediction.atMs + first.latestMs! + 2_000);

    // The producer stopped: the log start stays where it is, so the tools and the episode can agree exactly.
    const settled = await observe(groupId, topic);
    const logStart = settled.row.logStartOffset;
    expect(await logStartByTool(topic)).toBe(logStart);
    expect(await committedByTool(groupId, topic)).toBe(0n);
    const losses = await lossesOf(groupId);
    expect(losses).toHaveLength(1);
    expect(losses[0]).toMatchObject({ fromOffset: 0n, toOffset: logStart - 1n, count: logStart, endedAt: null });
    console.log(
      `  the loss as recorded: offsets 0–${logStart - 1n} (${logStart} records); GetOffsetShell --time -2: ${logStart}, kafka-consumer-groups CURRENT-OFFSET: 0`,
    );

    // The record size the window used is Kafka's: the stored average against the batches on disk.
    const stored = await db.topicRetention.findUniqueOrThrow({
      where: { cluster_topic: { cluster: DEFAULT_CLUSTER, topic } },
    });
    const segments = await kafkaTool(['kafka.tools.DumpLogSegments', '--files', (await segmentFiles(topic)).join(',')]);
    const batches = [...segments.matchAll(/count: (\d+).*? size: (\d+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(batches.length).toBeGreaterThan(0);
    const onDisk =
      batches.reduce((sum, [, size]) => sum + size!, 0) / batches.reduce((sum, [count]) => sum + count!, 0);
    expect(stored.recordBytes).not.toBeNull();
    expect(Math.abs(stored.recordBytes! - onDisk) / onDisk).toBeLessThan(0.01);
    console.log(
      `  record size: ${stored.recordBytes!.toFixed(1)} B estimated, ${onDisk.toFixed(1)} B on disk (DumpLogSegments)`,
    );

    const resumed = kafka.consumer({ groupId, maxWaitTimeInMs: 100, sessionTimeout: 10_000, heartbeatInterval: 500 });
    consumers.push(resumed);
    await resumed.connect();
    await resumed.subscribe({ topic, fromBeginning: true });
    await resumed.run({ autoCommitInterval: 100, eachMessage: async () => undefined });
    await observeUntil(
      'the reset group to be at or past the log start',
      groupId,
      topic,
      (o) => (o.row.committedOffset ?? -1n) >= logStart,
      60_000,
    );
    const ended = await lossesOf(groupId);
    expect(ended).toHaveLength(1);
    expect(ended[0]!.endedAt).not.toBeNull();
  });

  /** The segment files partition 0 of `topic` still has in npm test's broker's data directory. */
  async function segmentFiles(topic: string): Promise<string[]> {
    const dir = path.join(config.WARDEN_KAFKA_HOME!, 'data', `${topic}-0`);
    const logs = (await readdir(dir)).filter((f) => f.endsWith('.log')).sort();
    if (logs.length === 0) throw new Error(`no segment in ${dir}`);
    return logs.map((f) => path.join(dir, f));
  }
});
