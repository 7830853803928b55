import { describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import { loadTestConfig } from '../../test-support/test-config';
import { createDatabase, type Database } from '../../lib/db';
import { startLocalBroker, stopLocalBroker, type LocalBrokerOptions } from '../../scripts/lib/broker';
import { createTopic, eventually, testKafka, uniqueName } from '../../test-support/integration';
import { connectKafkaAndDatabase } from '../../test-support/kafka-and-database';
import { startPipelineConsumer, upsertEvent } from '../../test-support/pipeline-consumer';
import { ClusterReader } from '../../lib/kafka/cluster-reader';
import { LagSampler } from './lag-sampler';
import { commitOffsets } from '../../test-support/commit-offsets';

// The sampler through outages on the real broker and Postgres: the broker going away (retry with backoff,
// a recorded gap, no crash) and Postgres being unreachable (samples dropped and counted, while Warden's
// consumer keeps processing).

const config = loadTestConfig();
const kafka = testKafka('warden-sampler-outage-it');
const samplerState = {
  timeLagPoints: 10,
  timeLagSpacingMs: 0,
  rateWindowMs: 60_000,
  exactTimeLagIntervalMs: 0,
  exactTimeLagMaxPartitions: 10,
};

let admin: Admin;
let db: Database;
connectKafkaAndDatabase(kafka, (handles) => ({ admin, db } = handles));

async function groupWithLag(prefix: string): Promise<{ topic: string; groupId: string }> {
  const topic = `${prefix}-in`;
  const groupId = `${prefix}-group`;
  await createTopic(admin, topic, 1);
  const producer = kafka.producer();
  await producer.connect();
  await producer.send({ topic, acks: -1, messages: [{ value: 'a' }, { value: 'b' }] });
  await producer.disconnect();
  await commitOffsets(kafka, groupId, topic, [{ partition: 0, offset: '1' }]);
  return { topic, groupId };
}

// Only a broker this test run started can be stopped and restarted (npm test sets WARDEN_KAFKA_HOME).
const broker: LocalBrokerOptions = {
  port: config.WARDEN_KAFKA_PORT,
  controllerPort: config.WARDEN_KAFKA_CONTROLLER_PORT,
  home: config.WARDEN_KAFKA_HOME,
  fresh: false,
};

describe.runIf(config.WARDEN_KAFKA_HOME !== undefined)('the broker going away', () => {
  it('retries with backoff, records the gap, never crashes, and resumes when the broker is back', async () => {
    const prefix = uniqueName('outage');
    const { groupId } = await groupWithLag(prefix);
    const instanceId = `${prefix}-instance`;
    const sampler = new LagSampler({
      cluster: 'default',
      reader: new ClusterReader({ kafka, ownGroupId: 'unrelated', include: new RegExp(`^${groupId}$`), exclude: null }),
      db,
      lock: null,
      instanceId,
      intervalMs: 300,
      maxBackoffMs: 2_000,
      state: samplerState,
      retention: { rawDays: 7, rollupDays: 90 },
    });
    try {
      sampler.start();
      await eventually('a first round', async () => (sampler.stats().rounds >= 1 ? true : undefined));
      await stopLocalBroker(broker);
      const gap = await eventually(
        'an open gap after failed rounds',
        async () => (await db.samplerGap.findFirst({ where: { instanceId, endedAt: null } })) ?? undefined,
        90_000,
      );
      expect(gap.failedRounds).toBeGreaterThanOrEqual(1);
      expect(sampler.stats().consecutiveFailures).toBeGreaterThanOrEqual(1);
      const roundsDuringOutage = sampler.stats().rounds;

      await startLocalBroker(broker);
      const closed = await eventually(
        'the gap closed by a successful round',
        async () => (await db.samplerGap.findFirst({ where: { id: gap.id, endedAt: { not: null } } })) ?? undefined,
        90_000,
      );
      expect(closed.endedAt!.getTime()).toBeGreaterThan(closed.startedAt.getTime());
      expect(sampler.stats()).toMatchObject({ consecutiveFailures: 0, rowsDropped: 0 });
      expect(sampler.stats().rounds).toBeGreaterThan(roundsDuringOutage);
      // No sample lies inside the gap: the outage is visible as such, not as made-up rows.
      const inside = await db.lagSample.count({
        where: { groupId, sampledAt: { gt: closed.startedAt, lt: closed.endedAt! } },
      });
      expect(inside).toBe(0);
      // Sampling resumes (the group's own rows may take a round more: its coordinator reloads after a restart).
      await eventually('samples of the group after the gap', async () =>
        (await db.lagSample.count({ where: { groupId, sampledAt: { gte: closed.endedAt! } } })) > 0 ? true : undefined,
      );
    } finally {
      await startLocalBroker(broker); // leave a running broker for the files after this one
      await sampler.stop();
    }
  });
});

describe('Postgres unreachable for the sampler', () => {
  it('drops and counts the samples, never throws, and the consumer keeps processing', async () => {
    const prefix = uniqueName('pgdown');
    const { groupId } = await groupWithLag(prefix);
    const unreachable = createDatabase('postgresql://postgres@127.0.0.1:1/nowhere', 1);
    const sampler = new LagSampler({
      cluster: 'default',
      reader: new ClusterReader({ kafka, ownGroupId: 'unrelated', include: new RegExp(`^${groupId}$`), exclude: null }),
      db: unreachable,
      lock: null,
      instanceId: `${prefix}-instance`,
      intervalMs: 300,
      maxBackoffMs: 2_000,
      state: samplerState,
      retention: { rawDays: 7, rollupDays: 90 },
    });
    const topic = `${prefix}-work`;
    await createTopic(admin, topic, 2);
    const pipeline = await startPipelineConsumer({
      kafka,
      db,
      groupId: `${prefix}-pipeline`,
      topics: [topic],
      resultsTopic: `${prefix}-results`,
    });
    try {
      expect(await sampler.tick()).toBe(300); // cannot load its state: the round is skipped, not failed
      expect(sampler.stats()).toMatchObject({ skippedRounds: 1, failedRounds: 0 });

      const round = await sampler.sampleOnce();
      expect(round.written).toBe(false);
      expect(round.rows.map((r) => r.lag)).toEqual([1n]);
      expect(sampler.stats()).toMatchObject({
        rowsDropped: 1,
        rowsWritten: 0,
        failedRounds: 0,
        consecutiveFailures: 0,
      });

      sampler.start();
      const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
      await producer.connect();
      await producer.send({
        topic,
        acks: -1,
        messages: Array.from({ length: 20 }, (_, i) => ({
          partition: i % 2,
          value: upsertEvent(i, { businessId: `${prefix}-${i}` }),
        })),
      });
      await producer.disconnect();
      await eventually('the pipeline to store every record', async () =>
        (await db.storedDocument.count({ where: { sourceTopic: topic } })) === 20 ? true : undefined,
      );
      // Its loop keeps going without Postgres: each round is skipped (it cannot load its state) and counted.
      await eventually('more skipped rounds', async () => (sampler.stats().skippedRounds >= 3 ? true : undefined));
      expect(sampler.stats().failedRounds).toBe(0);
    } finally {
      await sampler.stop();
      await pipeline.stop();
      await unreachable.$disconnect().catch(() => undefined);
    }
  });
});
