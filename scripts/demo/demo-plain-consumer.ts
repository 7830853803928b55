import type { Consumer, Kafka } from 'kafkajs';

/**
 * The demo's consumer that Warden did not write: plain kafkajs in a group of its own, auto-committing, doing
 * nothing with what it reads. The story starts it and later stops it for good, so the dashboard shows what a
 * stopped foreign consumer looks like (STOP, with its reason). Stopping leaves the group (it turns Empty).
 */
export class DemoPlainConsumer {
  private consumer: Consumer | null = null;

  constructor(
    private readonly kafka: Kafka,
    private readonly groupId: string,
    private readonly topic: string,
  ) {}

  get running(): boolean {
    return this.consumer !== null;
  }

  async start(): Promise<void> {
    if (this.consumer) return;
    const consumer = this.kafka.consumer({ groupId: this.groupId, maxWaitTimeInMs: 500 });
    this.consumer = consumer;
    await consumer.connect();
    await consumer.subscribe({ topic: this.topic, fromBeginning: false });
    await consumer.run({ autoCommitInterval: 1_000, eachMessage: async () => undefined });
  }

  async stop(): Promise<void> {
    const consumer = this.consumer;
    this.consumer = null;
    await consumer?.disconnect();
  }
}
