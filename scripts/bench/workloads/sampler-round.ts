import { randomUUID } from 'node:crypto';
import type { Admin, Kafka } from 'kafkajs';
import { createDatabase, type Database } from '../../../lib/db';
import { createKafka } from '../../../lib/kafka/client';
import { ClusterReader } from '../../../lib/kafka/cluster-reader';
import { createInternalCluster } from '../../../lib/kafka/internal-cluster';
import type { CoordinatorCluster } from '../../../test-support/commit-offsets';
import { LagSampler, type RoundResult } from '../../../worker/sampler/lag-sampler';
import { eventually } from '../../../test-support/eventually';
import { epochNowMs, type ChildSpec, type Measurement } from '../protocol';
import { summarizeLatency } from '../stats';
import { peakRssBytes, sleep } from './probe';
import { percentileMs, roundTimings, sortedBy } from './round-timings';

// (10) One sampling round of the real LagSampler (worker/sampler/lag-sampler.ts: cluster read, rows, exact
// time lag when due, lag_sample / rebalance_event / log_end_point writes) against the real broker and
// Postgres, at the sampler's target size: 100 groups, each with committed offsets on all 50 partitions of a topic
// (5,000 group-partitions: 5,000 lag_sample rows per round). The sampler runs with the configured SAMPLER_*
// settings and, like the worker's, a 2-connection Postgres pool.
//
// The groups share `topics` topics (SAMPLER_TOPICS in plan.ts, 10 by default: 10 groups per topic, 500
// topic-partitions). What scales with group-partitions (offset fetches, rows, time lag and rates, the
// insert, exact reads) is at full size; what scales with topic-partitions (metadata, the two ListOffsets,
// log_end_point) is at a tenth of a cluster where every group reads its own topic. Why: a single local broker
// on this 2-core machine took about 2.5 minutes to create 5,000 partitions under load, and more than its
// 60 s start-up limit to load them again, which every later bench run would pay.
//
// (10r) runs the same rounds at a larger size, for the cluster read (listGroups,
// describeGroups, committed offsets per group, ListOffsets per broker): 1,000 groups on 20 topics of 50
// partitions (50,000 group-partitions, 1,000 topic-partitions). What limits it is topic-partitions, not groups:
// offsets commits of another thousand groups cost the broker little, while every 500 further partitions add
// minutes of creation and of log loading at every start on this machine. The rows and writes of (10r) are real
// too, but the compute and write path at full size is (10s)'s, on a generated state.
//
// Between rounds (outside the timed part) every partition gets one record and every group commits one
// further, so log ends, commits, rates and time lag all move as they do on a live cluster. The groups have
// no running members (offsets committed as an admin tool does): describeGroups is answered per group all
// the same, but there are no assignments to decode. The first round connects and is reported apart. The
// topics are kept for the next run; the groups are made for the run and deleted after it.

export const SAMPLER_PREFIX = 'warden-bench.sampler';
/** Records per partition before the first round, and where the groups start committing. */
const INITIAL_RECORDS = 20;
const INITIAL_COMMIT = 10;

/**
 * The topics, reused across runs while they have `partitions` partitions (others are deleted and created
 * again), with leaders and their logs in place, every partition holding at least INITIAL_RECORDS records.
 */
async function prepareTopics(
  admin: Admin,
  kafka: Kafka,
  wanted: string[],
  partitions: number,
): Promise<Map<string, number[]>> {
  const existing = new Set(await admin.listTopics());
  const present = wanted.filter((t) => existing.has(t));
  const metadata = present.length > 0 ? await admin.fetchTopicMetadata({ topics: present }) : { topics: [] };
  const wrongShape = metadata.topics.filter((t) => t.partitions.length !== partitions).map((t) => t.name);
  if (wrongShape.length > 0) {
    await admin.deleteTopics({ topics: wrongShape, timeout: 60_000 });
    for (const t of wrongShape) existing.delete(t);
    await sleep(5_000);
  }
  const missing = wanted.filter((t) => !existing.has(t));
  if (missing.length > 0) {
    // Leaders are awaited below: kafkajs's waitForLeaders gives up while a busy broker's metadata lags.
    await admin.createTopics({
      topics: missing.map((topic) => ({ topic, numPartitions: partitions, replicationFactor: -1 })),
      waitForLeaders: false,
      timeout: 120_000,
    });
  }
  await eventually(
    `leaders for ${wanted.length} topics of ${partitions} partitions`,
    async () => {
      const { topics } = await admin.fetchTopicMetadata({ topics: wanted });
      return topics.length === wanted.length &&
        topics.every((t) => t.partitions.length === partitions && t.partitions.every((p) => p.leader >= 0))
        ? true
        : undefined;
    },
    300_000,
  );
  const logEnds = new Map<string, number[]>();
  for (const topic of wanted) {
    // The broker answers NOT_LEADER until it has created the partition's log, which can take a while after
    // the metadata already names it the leader: retried.
    const offsets = await eventually(`log ends of ${topic}`, () => admin.fetchTopicOffsets(topic), 300_000);
    logEnds.set(
      topic,
      offsets.sort((a, b) => a.partition - b.partition).map((o) => Number(o.high)),
    );
  }
  const short = wanted.filter((t) => logEnds.get(t)!.some((end) => end < INITIAL_RECORDS));
  if (short.length > 0) {
    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    try {
      for (const topic of short) {
        const ends = logEnds.get(topic)!;
        const messages = ends.flatMap((end, partition) =>
          Array.from({ length: Math.max(0, INITIAL_RECORDS - end) }, (_, i) => ({
            partition,
            value: `seed-${end + i}`,
          })),
        );
        await producer.send({ topic, acks: -1, messages });
        logEnds.set(
          topic,
          ends.map((end) => Math.max(end, INITIAL_RECORDS)),
        );
      }
    } finally {
      await producer.disconnect();
    }
  }
  return logEnds;
}

const COORDINATOR_NOT_READY = [
  'NOT_COORDINATOR_FOR_GROUP',
  'GROUP_LOAD_IN_PROGRESS',
  'GROUP_COORDINATOR_NOT_AVAILABLE',
];

/**
 * One OffsetCommit per group (all its partitions), as an admin tool commits for a group without members;
 * retried for up to a minute while the group coordinator is not ready (a fresh broker creating its offsets topic).
 */
async function commitAll(
  cluster: CoordinatorCluster,
  commits: Map<string, { topic: string; offsets: number[] }>,
): Promise<void> {
  const deadline = Date.now() + 60_000;
  await Promise.all(
    [...commits].map(async ([groupId, { topic, offsets }]) => {
      for (;;) {
        try {
          const coordinator = await cluster.findGroupCoordinator({ groupId });
          await coordinator.offsetCommit({
            groupId,
            groupGenerationId: -1,
            memberId: '',
            retentionTime: -1,
            topics: [
              { topic, partitions: offsets.map((offset, partition) => ({ partition, offset: String(offset) })) },
            ],
          });
          return;
        } catch (error) {
          const type = (error as { type?: string }).type ?? '';
          if (!COORDINATOR_NOT_READY.includes(type) || Date.now() > deadline) throw error;
          await sleep(500);
        }
      }
    }),
  );
}

/** Rows of earlier runs of this workload, so every run starts from the same empty history. */
async function clearHistory(db: Database): Promise<void> {
  const groups = `${SAMPLER_PREFIX}.%`;
  const topics = `${SAMPLER_PREFIX}.%`;
  await db.$executeRaw`DELETE FROM lag_sample WHERE group_id LIKE ${groups}`;
  await db.$executeRaw`DELETE FROM lag_rollup WHERE group_id LIKE ${groups}`;
  await db.$executeRaw`DELETE FROM rebalance_event WHERE group_id LIKE ${groups}`;
  await db.$executeRaw`DELETE FROM log_end_point WHERE topic LIKE ${topics}`;
}

export async function runSamplerRound(spec: ChildSpec): Promise<Measurement> {
  const settings = spec.sampler;
  if (!settings) throw new Error(`workload ${spec.workload}: the sampler settings are missing`);
  const kafka = createKafka({ brokers: spec.brokers, clientId: `bench-${spec.workload}` });
  const admin = kafka.admin();
  await admin.connect();
  const db = createDatabase(settings.databaseUrl, 2);
  const run = `${SAMPLER_PREFIX}.${randomUUID().slice(0, 8)}`;
  const topics = Array.from({ length: settings.topics }, (_, i) => `${SAMPLER_PREFIX}.t${String(i).padStart(3, '0')}`);
  const groupIds = Array.from({ length: settings.groups }, (_, i) => `${run}.g${String(i).padStart(3, '0')}`);
  /** Group i commits on topic i mod topics. */
  const topicOf = (i: number) => topics[i % topics.length]!;
  const cluster = createInternalCluster(kafka) as CoordinatorCluster;
  await cluster.connect();
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  const sampler = new LagSampler({
    cluster: 'default',
    reader: new ClusterReader({
      kafka,
      ownGroupId: `${run}.own-unused`,
      include: new RegExp(`^${run.replaceAll('.', '\\.')}\\.g`),
      exclude: null,
    }),
    db,
    lock: null,
    instanceId: `bench-${spec.workload}`,
    intervalMs: settings.intervalMs,
    maxBackoffMs: 60_000,
    state: settings.state,
    retention: { rawDays: 7, rollupDays: 90 },
  });
  try {
    const setupStarted = performance.now();
    const progress = (what: string) =>
      console.log(`bench (10): ${what} after ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`);
    await clearHistory(db);
    const logEnds = await prepareTopics(admin, kafka, topics, settings.partitions);
    progress(`${topics.length} topics of ${settings.partitions} partitions created and filled`);
    const commits = new Map(
      groupIds.map((groupId, i) => [
        groupId,
        { topic: topicOf(i), offsets: logEnds.get(topicOf(i))!.map((end) => end - (INITIAL_RECORDS - INITIAL_COMMIT)) },
      ]),
    );
    await commitAll(cluster, commits);
    progress(`${groupIds.length} groups committed`);
    const setupMs = performance.now() - setupStarted;

    const baselineRssBytes = process.memoryUsage.rss();
    const results: RoundResult[] = [];
    const startEpochMs = epochNowMs();
    for (let round = 0; round < settings.rounds; round++) {
      const roundStarted = performance.now();
      const result = await sampler.sampleOnce();
      if (!result.written) throw new Error(`round ${round + 1}: the rows did not reach Postgres`);
      results.push(result);
      if (round === settings.rounds - 1) break;
      // The cluster moves on between rounds: one record per partition, every group one commit further.
      await producer.sendBatch({
        acks: -1,
        topicMessages: topics.map((topic) => ({
          topic,
          messages: Array.from({ length: settings.partitions }, (_, partition) => ({ partition, value: `r${round}` })),
        })),
      });
      for (const entry of commits.values()) entry.offsets = entry.offsets.map((offset) => offset + 1);
      await commitAll(cluster, commits);
      await sleep(Math.max(0, settings.intervalMs - (performance.now() - roundStarted)));
    }
    const endEpochMs = epochNowMs();
    const peak = peakRssBytes();
    const maintenanceStarted = performance.now();
    await sampler.maintain();
    const maintenanceMs = performance.now() - maintenanceStarted;

    const [first, ...measured] = results;
    const expectedRows = settings.groups * settings.partitions;
    const short = measured.find((r) => r.rows.length !== expectedRows);
    if (short) throw new Error(`a round wrote ${short.rows.length} lag_sample rows, expected ${expectedRows}`);
    const timings = roundTimings(measured, (r) => r.durationMs);
    const withExact = measured.filter((r) => r.exactReadMs > 0);
    const points = await db.$queryRaw<
      Array<{ count: bigint }>
    >`SELECT count(*) AS count FROM log_end_point WHERE topic LIKE ${`${SAMPLER_PREFIX}.t%`}`;
    return {
      records: expectedRows,
      startEpochMs,
      endEpochMs,
      latency: summarizeLatency(timings.durations),
      peakRssBytes: peak,
      baselineRssBytes,
      partitionDoneMs: [],
      details: {
        ...timings.details,
        firstRoundMs: Math.round(first?.durationMs ?? Number.NaN),
        roundsWithExactReads: withExact.length,
        exactReadP50Ms:
          withExact.length > 0
            ? percentileMs(
                sortedBy(withExact, (r) => r.exactReadMs),
                50,
              )
            : null,
        lagSampleRowsPerRound: expectedRows,
        lagSampleRowsWritten: results.reduce((sum, r) => sum + r.rows.length, 0),
        rebalanceRowsWritten: results.reduce((sum, r) => sum + r.rebalances.length, 0),
        logEndPointRows: Number(points[0]?.count ?? 0),
        maintenanceMs: Math.round(maintenanceMs),
        intervalMs: settings.intervalMs,
        topics: settings.topics,
        topicPartitions: settings.topics * settings.partitions,
        setupMs: Math.round(setupMs),
      },
    };
  } finally {
    await sampler.stop().catch(() => undefined);
    await admin.deleteGroups(groupIds).catch(() => undefined);
    await producer.disconnect().catch(() => undefined);
    await cluster.disconnect().catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
    await db.$disconnect();
  }
}
