import type {
  ConsumerConfig,
  ITopicConfig,
  KafkaMessage,
  ProducerConfig,
  ProducerRecord,
  RecordMetadata,
} from 'kafkajs';
import type { KafkajsRunConfig } from '../../kafkajs/kafkajs-adapter.js';
import { FakeAdmin, FakeKafka, FakeKafkajsConsumer } from '../../kafkajs/testing/fake-kafkajs.js';
import type { ControlAdmin, ControlKafkaClient, ControlProducer } from '../control-plane.js';

// The kafkajs surface of the control plane, in memory, for unit tests: a producer that records what it sends
// (or fails on demand), an admin with the topic, group and offset calls, and consumers whose eachBatch the
// test feeds with whole messages (key, value, headers) as the command topic would.

export class FakeProducer implements ControlProducer {
  readonly config: ProducerConfig | undefined;
  connected = false;
  connectError: Error | null = null;
  /** Makes every send reject with this error while set. */
  sendError: Error | null = null;
  readonly sent: ProducerRecord[] = [];

  constructor(config?: ProducerConfig) {
    this.config = config;
  }

  connect(): Promise<void> {
    if (this.connectError) return Promise.reject(this.connectError);
    this.connected = true;
    return Promise.resolve();
  }

  disconnect(): Promise<void> {
    this.connected = false;
    return Promise.resolve();
  }

  send(record: ProducerRecord): Promise<RecordMetadata[]> {
    if (!this.connected) return Promise.reject(new Error('producer not connected'));
    if (this.sendError) return Promise.reject(this.sendError);
    this.sent.push(record);
    return Promise.resolve([]);
  }

  /** Every message sent to `topic`, in order. */
  messages(topic: string): ProducerRecord['messages'] {
    return this.sent.filter((record) => record.topic === topic).flatMap((record) => record.messages);
  }
}

export class FakeControlAdmin extends FakeAdmin implements ControlAdmin {
  readonly topics = new Set<string>();
  readonly createdTopics: ITopicConfig[] = [];
  createTopicsError: Error | null = null;
  readonly deletedGroups: string[] = [];
  deleteGroupsError: Error | null = null;
  /** Per topic: partition → low and high watermark. */
  readonly logRanges = new Map<string, Array<{ partition: number; low: string; high: string }>>();

  listTopics(): Promise<string[]> {
    return Promise.resolve([...this.topics]);
  }

  createTopics(options: { topics: ITopicConfig[] }): Promise<boolean> {
    if (this.createTopicsError) return Promise.reject(this.createTopicsError);
    const fresh = options.topics.filter((config) => !this.topics.has(config.topic));
    for (const config of fresh) {
      this.topics.add(config.topic);
      this.createdTopics.push(config);
    }
    return Promise.resolve(fresh.length > 0);
  }

  deleteGroups(groupIds: string[]): Promise<Array<{ groupId: string; errorCode: number }>> {
    if (this.deleteGroupsError) return Promise.reject(this.deleteGroupsError);
    this.deletedGroups.push(...groupIds);
    return Promise.resolve(groupIds.map((groupId) => ({ groupId, errorCode: 0 })));
  }

  fetchTopicOffsets(topic: string) {
    return Promise.resolve((this.logRanges.get(topic) ?? []).map((p) => ({ ...p, offset: p.high })));
  }

  fetchTopicOffsetsByTimestamp(topic: string) {
    return Promise.resolve((this.logRanges.get(topic) ?? []).map((p) => ({ partition: p.partition, offset: p.high })));
  }
}

/** A kafkajs consumer whose eachBatch the test calls with whole messages. */
export class FakeMessageConsumer extends FakeKafkajsConsumer {
  private config_: KafkajsRunConfig | null = null;
  private nextOffset = 0;

  override run(config: KafkajsRunConfig): Promise<void> {
    this.config_ = config;
    return super.run(config);
  }

  /** Hands `messages` to eachBatch as one batch of partition 0 and waits for it; returns the resolved offsets. */
  async deliverMessages(
    topic: string,
    messages: Array<Pick<KafkaMessage, 'key' | 'value'> & { headers?: KafkaMessage['headers'] }>,
  ): Promise<string[]> {
    const config = this.config_;
    if (!config || !this.running) throw new Error('eachBatch runs only while the consumer group runs');
    const full: KafkaMessage[] = messages.map((message) => ({
      key: message.key,
      value: message.value,
      headers: message.headers ?? {},
      timestamp: '0',
      attributes: 0,
      offset: String(this.nextOffset++),
    }));
    const resolved: string[] = [];
    await config.eachBatch({
      batch: { topic, partition: 0, highWatermark: String(this.nextOffset), messages: full },
      resolveOffset: (offset) => resolved.push(offset),
      isStale: () => false,
      isRunning: () => this.running,
    });
    return resolved;
  }
}

/** FakeKafka with a producer and the control plane's admin calls; every consumer takes whole messages. */
export class FakeControlKafka extends FakeKafka implements ControlKafkaClient {
  override readonly adminClient = new FakeControlAdmin();
  override readonly consumers: FakeMessageConsumer[] = [];
  readonly producers: FakeProducer[] = [];

  override consumer(config: ConsumerConfig): FakeMessageConsumer {
    const consumer = new FakeMessageConsumer(config, this.connectError);
    this.consumers.push(consumer);
    return consumer;
  }

  override admin(): FakeControlAdmin {
    return this.adminClient;
  }

  producer(config?: ProducerConfig): FakeProducer {
    const producer = new FakeProducer(config);
    this.producers.push(producer);
    return producer;
  }

  /** The consumer of the given group created last. */
  consumerOf(groupIdPrefix: string): FakeMessageConsumer {
    const found = this.consumers.filter((c) => c.config.groupId.startsWith(groupIdPrefix)).at(-1);
    if (!found) throw new Error(`no consumer of a group starting with ${groupIdPrefix}`);
    return found;
  }
}
