import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin, Message } from 'kafkajs';
import { createTopic, eventually, testKafka, uniqueName } from '../../test-support/integration';
import { createKafka } from './client';
import { ClusterReader } from './cluster-reader';
import { commitOffsets } from '../../test-support/commit-offsets';
import { loadTestConfig } from '../../test-support/test-config';

// The kafkajs internals the reader relies on (kafkajs-cluster.ts), proven against the real broker: batched
// watermarks for many topics, a group-less Fetch of the record at an offset, deleted and grown topics.

describe('ClusterReader on the real broker', () => {
  const kafka = testKafka('warden-cluster-reader-it');
  const prefix = uniqueName('reader');
  const groupId = `${prefix}-group`;
  let admin: Admin;
  let reader: ClusterReader;

  beforeAll(async () => {
    admin = kafka.admin();
    await admin.connect();
    reader = new ClusterReader({ kafka, ownGroupId: 'not-this-one', include: new RegExp(`^${prefix}`), exclude: null });
  });

  /** Sends `messages` to `topic`, acknowledged by every in-sync replica. */
  async function produce(topic: string, messages: Message[]): Promise<void> {
    const producer = kafka.producer();
    await producer.connect();
    try {
      await producer.send({ topic, acks: -1, messages });
    } finally {
      await producer.disconnect();
    }
  }

  afterAll(async () => {
    await reader?.disconnect();
    await admin?.disconnect();
  });

  it('reads groups, members, committed offsets and watermarks of several topics at once', async () => {
    const a = `${prefix}-a`;
    const b = `${prefix}-b`;
    await createTopic(admin, a, 2);
    await createTopic(admin, b, 1);
    await produce(a, [
      { partition: 0, value: '1' },
      { partition: 0, value: '2' },
      { partition: 1, value: '3' },
    ]);
    await produce(b, [{ partition: 0, value: '4' }]);
    await commitOffsets(kafka, groupId, a, [{ partition: 0, offset: '1' }]);
    await commitOffsets(kafka, groupId, b, [{ partition: 0, offset: '0' }]);
    await commitOffsets(kafka, `other-${prefix}`, b, [{ partition: 0, offset: '0' }]); // outside the include filter

    const observation = await reader.readCluster();
    expect(observation.groups.map((g) => [g.groupId, g.state, g.members.length])).toEqual([[groupId, 'Empty', 0]]);
    expect(observation.watermarks).toEqual([
      {
        topic: a,
        partitions: [
          { partition: 0, low: '0', high: '2' },
          { partition: 1, low: '0', high: '1' },
        ],
      },
      { topic: b, partitions: [{ partition: 0, low: '0', high: '1' }] },
    ]);
  });

  it('reads the timestamp of the record at an offset without joining a group, and survives out-of-range offsets', async () => {
    const topic = `${prefix}-ts`;
    await createTopic(admin, topic, 3);
    await produce(topic, [
      { partition: 0, value: 'a', timestamp: '1700000000000' },
      { partition: 0, value: 'b', timestamp: '1700000001000' },
      { partition: 1, value: 'c', timestamp: '1700000005000' },
    ]);
    await commitOffsets(kafka, groupId, topic, [{ partition: 0, offset: '1' }]);
    await reader.readCluster(); // loads metadata for the round's topics, as the sampler does

    const results = await reader.readRecordTimestamps([
      { topic, partition: 0, offset: 1n },
      { topic, partition: 0, offset: 0n }, // a second group at another offset of the same partition
      { topic, partition: 1, offset: 0n },
      { topic, partition: 2, offset: 999n }, // beyond the log end: the broker answers OFFSET_OUT_OF_RANGE
    ]);
    const byKey = Object.fromEntries(results.map((r) => [`${r.partition}@${r.offset}`, r.timestampMs]));
    expect(byKey).toEqual({ '0@1': 1700000001000, '0@0': 1700000000000, '1@0': 1700000005000, '2@999': null });
    const groups = await admin.listGroups();
    expect(groups.groups.filter((g) => g.groupId.startsWith(prefix)).map((g) => g.groupId)).toEqual([groupId]);
  });

  it('reads every partition of a wide topic in one Fetch (kafkajs splits a shuffled topic into several entries)', async () => {
    const topic = `${prefix}-wide`;
    const partitions = 24;
    await createTopic(admin, topic, partitions);
    await produce(
      topic,
      Array.from({ length: partitions }, (_, p) => ({
        partition: p,
        value: 'x',
        timestamp: String(1700000000000 + p),
      })),
    );
    await commitOffsets(kafka, groupId, topic, [{ partition: 0, offset: '0' }]);
    await reader.readCluster();
    const results = await reader.readRecordTimestamps(
      Array.from({ length: partitions }, (_, p) => ({ topic, partition: p, offset: 0n })),
    );
    expect(
      results.map((r) => [r.partition, r.timestampMs]).sort((a, b) => (a[0] as number) - (b[0] as number)),
    ).toEqual(Array.from({ length: partitions }, (_, p) => [p, 1700000000000 + p]));
  });

  it('reads the timestamps of a topic no round has covered, before the reader has read the cluster at all', async () => {
    const topic = `${prefix}-unrounded`;
    await createTopic(admin, topic, 2);
    await produce(topic, [
      { partition: 0, value: 'a', timestamp: '1700000010000' },
      { partition: 1, value: 'b', timestamp: '1700000020000' },
    ]);
    const fresh = new ClusterReader({ kafka, ownGroupId: 'not-this-one', include: null, exclude: null });
    try {
      const results = await fresh.readRecordTimestamps([
        { topic, partition: 0, offset: 0n },
        { topic, partition: 1, offset: 0n },
        { topic: `${prefix}-never-created`, partition: 0, offset: 0n },
      ]);
      const byKey = Object.fromEntries(results.map((r) => [`${r.topic}-${r.partition}`, r.timestampMs]));
      expect(byKey).toEqual({
        [`${topic}-0`]: 1700000010000,
        [`${topic}-1`]: 1700000020000,
        [`${prefix}-never-created-0`]: null,
      });
    } finally {
      await fresh.disconnect();
    }
  });

  it('leaves out a topic deleted since the group committed to it, and sees partitions added to another', async () => {
    const kept = `${prefix}-kept`;
    const doomed = `${prefix}-doomed`;
    const group = `${prefix}-group-2`;
    await createTopic(admin, kept, 1);
    await createTopic(admin, doomed, 1);
    await commitOffsets(kafka, group, kept, [{ partition: 0, offset: '0' }]);
    await commitOffsets(kafka, group, doomed, [{ partition: 0, offset: '0' }]);
    const before = await reader.readCluster();
    expect(before.watermarks.map((w) => w.topic)).toEqual(expect.arrayContaining([kept, doomed]));

    await admin.deleteTopics({ topics: [doomed] });
    await admin.createPartitions({ topicPartitions: [{ topic: kept, count: 3 }] });
    const after = await reader.readCluster();
    expect(after.watermarks.map((w) => w.topic)).not.toContain(doomed);
    expect(after.topics).toContain(kept);
    // New partitions join the rounds as soon as they have a leader.
    await eventually('the added partitions', async () => {
      const partitions = (await reader.readCluster()).watermarks
        .find((w) => w.topic === kept)
        ?.partitions.map((p) => p.partition);
      return partitions?.length === 3 ? partitions : undefined;
    });
    // And the next round is not poisoned by the deleted topic either.
    const again = await reader.readCluster();
    expect(again.watermarks.find((w) => w.topic === kept)?.partitions).toHaveLength(3);
  });

  it('stops reporting a deleted group', async () => {
    const topic = `${prefix}-del`;
    const doomedGroup = `${prefix}-group-doomed`;
    await createTopic(admin, topic, 1);
    await commitOffsets(kafka, doomedGroup, topic, [{ partition: 0, offset: '0' }]);
    expect((await reader.readCluster()).groups.map((g) => g.groupId)).toContain(doomedGroup);
    await admin.deleteGroups([doomedGroup]);
    expect((await reader.readCluster()).groups.map((g) => g.groupId)).not.toContain(doomedGroup);
  });

  it("reads topics' retention configs (a missing topic gets its error) and the brokers' retention check interval", async () => {
    const topic = `${prefix}-retention`;
    await admin.createTopics({
      topics: [
        {
          topic,
          numPartitions: 1,
          replicationFactor: 1,
          configEntries: [
            { name: 'retention.ms', value: '20000' },
            { name: 'cleanup.policy', value: 'compact,delete' },
            { name: 'segment.bytes', value: '1048576' },
          ],
        },
      ],
    });
    const read = await reader.readTopicSettings([topic, `${prefix}-never-created`]);
    expect(read.topics).toEqual([
      {
        topic,
        configs: {
          'cleanup.policy': 'compact,delete',
          'retention.ms': '20000',
          'retention.bytes': '-1',
          'segment.ms': '604800000',
          'segment.bytes': '1048576',
        },
        error: null,
      },
      {
        topic: `${prefix}-never-created`,
        configs: null,
        error: expect.stringMatching(
          new RegExp(
            `^could not describe the configs of topic ${prefix}-never-created: .*\\(UNKNOWN_TOPIC_OR_PARTITION\\)$`,
          ),
        ),
      },
    ]);
    expect(read.brokerError).toBeNull();
    // The bundled broker checks every 5 s (scripts/kafka/broker.sh); another cluster keeps its own.
    if (loadTestConfig().WARDEN_KAFKA_HOME !== undefined) expect(read.retentionCheckIntervalMs).toBe(5_000);
    else expect(read.retentionCheckIntervalMs).toBeGreaterThan(0);
  });

  it("measures the records a read brings back as Kafka's record format sizes them", async () => {
    const topic = `${prefix}-sizes`;
    await createTopic(admin, topic, 1);
    // One send: one batch of one record. Key 1+1, value 2+100, one header 1 + (1+1) + (1+1), attributes and
    // both deltas 3: a 112-byte body, its 2-byte length, and the batch's 61-byte header.
    await produce(topic, [{ key: 'k', value: 'x'.repeat(100), headers: { h: 'v' } }]);
    const [read] = await reader.readRecordTimestamps([{ topic, partition: 0, offset: 0n }]);
    expect(read?.recordSize).toEqual({ bytes: 175, records: 1 });
  });

  it('fails a round (rejects, never hangs or crashes) when the cluster cannot be reached', async () => {
    const unreachable = new ClusterReader({
      kafka: createKafka({ brokers: ['127.0.0.1:1'], clientId: 'nowhere', logLevel: 'error' }),
      ownGroupId: 'x',
      include: null,
      exclude: null,
    });
    await expect(unreachable.readCluster()).rejects.toThrow();
    await unreachable.disconnect();
  });
});
