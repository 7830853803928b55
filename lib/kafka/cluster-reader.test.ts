import { describe, expect, it } from 'vitest';
import { KafkaJSConnectionError, KafkaJSProtocolError, type Admin, type Kafka } from 'kafkajs';
import {
  ClusterReader,
  describeTopicConfigs,
  readRetentionCheckInterval,
  recordBatchBytes,
  RETENTION_CHECK_CONFIG_NAME,
  RETENTION_CONFIG_NAMES,
} from './cluster-reader';

// The reader's settings path against a fake admin that refuses what a broker with ACLs refuses (the real
// refusal is proven on an ACL-enforcing broker in worker/sampler/retention-settings.it.ts), and the record
// size arithmetic against Kafka's record format.

const refusal = (type: string, code: number, message: string) =>
  new KafkaJSProtocolError({ type, code, retriable: false, message } as unknown as Error);
const topicRefusal = () =>
  refusal('TOPIC_AUTHORIZATION_FAILED', 29, 'Not authorized to access topics: [Topic authorization failed]');

type DescribeConfigs = Admin['describeConfigs'];

/**
 * A fake DescribeConfigs that, like kafkajs, fails the whole call when one resource has an error code, and
 * records the batches it was asked.
 */
function fakeAdmin(options: { refused?: Record<string, () => Error>; brokers?: number[]; brokerError?: () => Error }) {
  const calls: string[][] = [];
  const describeConfigs: DescribeConfigs = async ({ resources }) => {
    calls.push(resources.map((r) => r.name));
    for (const r of resources) {
      const refuse = r.type === 2 ? options.refused?.[r.name] : options.brokerError;
      if (refuse) throw refuse();
    }
    return {
      throttleTime: 0,
      resources: resources.map((r) => ({
        errorCode: 0,
        errorMessage: null,
        resourceType: r.type,
        resourceName: r.name,
        configEntries: (r.configNames ?? []).map((name) => ({
          configName: name,
          configValue:
            name === RETENTION_CHECK_CONFIG_NAME
              ? String(1_000 * Number(r.name))
              : name === 'cleanup.policy'
                ? 'delete'
                : name === 'retention.ms'
                  ? '20000'
                  : '-1',
          isDefault: false,
          configSource: 1,
          isSensitive: false,
          readOnly: false,
          configSynonyms: [],
        })),
      })),
    } as unknown as Awaited<ReturnType<DescribeConfigs>>;
  };
  const describeCluster = (async () => ({
    brokers: (options.brokers ?? [1]).map((nodeId) => ({ nodeId, host: '127.0.0.1', port: 9092 })),
    controller: 1,
    clusterId: 'c',
  })) as Admin['describeCluster'];
  return { admin: { describeConfigs, describeCluster }, calls };
}

describe('describeTopicConfigs', () => {
  it('reads every topic in one request when none is refused', async () => {
    const { admin, calls } = fakeAdmin({});
    const read = await describeTopicConfigs(admin, ['a', 'b', 'c']);
    expect(calls).toEqual([['a', 'b', 'c']]);
    expect(read[0]).toEqual({
      topic: 'a',
      configs: {
        'cleanup.policy': 'delete',
        'retention.ms': '20000',
        'retention.bytes': '-1',
        'segment.ms': '-1',
        'segment.bytes': '-1',
      },
      error: null,
    });
    expect(Object.keys(read[0]!.configs!)).toEqual([...RETENTION_CONFIG_NAMES]);
  });

  it('gives a refused topic its refusal in words, and the others their configs', async () => {
    const topics = Array.from({ length: 16 }, (_, i) => `t${i}`);
    const { admin, calls } = fakeAdmin({
      refused: {
        t5: topicRefusal,
        t12: () => refusal('UNKNOWN_TOPIC_OR_PARTITION', 3, 'This server does not host this topic-partition'),
      },
    });
    const read = await describeTopicConfigs(admin, topics);
    expect(read.map((r) => r.topic)).toEqual(topics);
    expect(read.filter((r) => r.error === null)).toHaveLength(14);
    expect(read.find((r) => r.topic === 't5')).toEqual({
      topic: 't5',
      configs: null,
      error: 'not authorized to describe the configs of topic t5 (TOPIC_AUTHORIZATION_FAILED)',
    });
    expect(read.find((r) => r.topic === 't12')).toEqual({
      topic: 't12',
      configs: null,
      error:
        'could not describe the configs of topic t12: This server does not host this topic-partition (UNKNOWN_TOPIC_OR_PARTITION)',
    });
    // Halves until each refused topic stands alone: far fewer requests than one per topic.
    expect(calls.length).toBeLessThan(16);
    expect(calls).toContainEqual(['t5']);
  });

  it('rejects when the request fails for another reason than an error code', async () => {
    const { admin } = fakeAdmin({ refused: { b: () => new KafkaJSConnectionError('Connection timeout') } });
    await expect(describeTopicConfigs(admin, ['a', 'b'])).rejects.toThrow('Connection timeout');
  });
});

describe('readRetentionCheckInterval', () => {
  it('takes the largest interval of the brokers', async () => {
    const { admin } = fakeAdmin({ brokers: [3, 1, 2] });
    expect(await readRetentionCheckInterval(admin)).toEqual({ retentionCheckIntervalMs: 3_000, brokerError: null });
  });

  it('says why when refused, and never rejects', async () => {
    const denied = fakeAdmin({
      brokerError: () => refusal('CLUSTER_AUTHORIZATION_FAILED', 31, 'Cluster authorization failed'),
    });
    expect(await readRetentionCheckInterval(denied.admin)).toEqual({
      retentionCheckIntervalMs: null,
      brokerError: 'not authorized to describe the configs of broker 1 (CLUSTER_AUTHORIZATION_FAILED)',
    });
    const down = fakeAdmin({ brokers: [1, 2], brokerError: () => new KafkaJSConnectionError('Connection timeout') });
    expect(await readRetentionCheckInterval(down.admin)).toEqual({
      retentionCheckIntervalMs: null,
      brokerError: 'could not describe the configs of brokers 1, 2: Connection timeout',
    });
  });
});

describe('ClusterReader.readTopicSettings', () => {
  /** A Kafka whose admin is `admin` and whose internal cluster does nothing (createInternalCluster's checks pass). */
  function fakeKafka(admin: Partial<Admin>): Kafka {
    const noop = async () => undefined;
    const cluster = {
      targetTopics: new Set<string>(),
      connect: noop,
      disconnect: noop,
      refreshMetadata: noop,
      findTopicPartitionMetadata: () => [],
      findLeaderForPartitions: () => ({}),
      findBroker: noop,
      fetchTopicsOffset: async () => [],
    };
    return {
      admin: () => ({ connect: noop, disconnect: noop, ...admin }),
      [Symbol('private:Kafka:createCluster')]: () => cluster,
    } as unknown as Kafka;
  }

  it('gives refused topics and an unreadable broker setting their reasons, never zeros', async () => {
    const { admin } = fakeAdmin({
      refused: { orders: topicRefusal },
      brokerError: () => refusal('CLUSTER_AUTHORIZATION_FAILED', 31, 'Cluster authorization failed'),
    });
    const reader = new ClusterReader({ kafka: fakeKafka(admin), ownGroupId: 'w', include: null, exclude: null });
    const read = await reader.readTopicSettings(['orders', 'payments', 'orders']);
    expect(read).toEqual({
      topics: [
        {
          topic: 'orders',
          configs: null,
          error: 'not authorized to describe the configs of topic orders (TOPIC_AUTHORIZATION_FAILED)',
        },
        expect.objectContaining({ topic: 'payments', error: null }),
      ],
      retentionCheckIntervalMs: null,
      brokerError: 'not authorized to describe the configs of broker 1 (CLUSTER_AUTHORIZATION_FAILED)',
    });
  });
});

describe('recordBatchBytes', () => {
  it("is Kafka's size of a record alone in its batch: 61 bytes of batch header and the record", () => {
    // Null key, a 1-byte value, no headers: length 1, attributes 1, deltas 1 + 1, key 1, value 1 + 1, headers 1.
    const record = { offset: '7', timestamp: '1700000000000', key: null, value: Buffer.from('a'), headers: {} };
    expect(
      recordBatchBytes({
        ...record,
        batchContext: { firstOffset: '7', firstTimestamp: '1700000000000', lastOffsetDelta: 0 },
      }),
    ).toBe(61 + 8);
  });

  it('counts key, headers and the deltas within a batch, and shares the batch header among its records', () => {
    const batchContext = { firstOffset: '100', firstTimestamp: '1700000000000', lastOffsetDelta: 3 };
    const second = {
      offset: '101',
      timestamp: '1700000001000', // delta 1000: a 2-byte varlong
      key: Buffer.from('order-1'),
      value: Buffer.alloc(200), // a 2-byte length
      headers: { trace: Buffer.from('abc'), tag: [Buffer.from('x'), null] },
      batchContext,
    };
    // attributes 1 + ts 2 + offset 1 + key 1+7 + value 2+200 + header count 1
    //   + trace (1+5 + 1+3) + tag x (1+3 + 1+1) + tag null (1+3 + 1) = 236; its length varint 2.
    expect(recordBatchBytes(second)).toBe(2 + 236 + 61 / 4);
  });

  it('without a batch context (an older format) counts the record alone', () => {
    expect(recordBatchBytes({ offset: '1', timestamp: '0', key: null, value: null })).toBe(1 + 6 + 61);
  });
});
