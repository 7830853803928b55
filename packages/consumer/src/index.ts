// @warden/consumer: a partition-isolating Kafka consumer on kafkajs. `createConsumer` is the entry point; the
// pure core (ConsumerCore and its types) is exported for hosts that bring their own Kafka client.

export * from './core/index.js';
export { createConsumer, WardenConsumer } from './kafkajs/warden-consumer.js';
export type { WardenConsumerOptions } from './kafkajs/warden-consumer.js';
export type { ConsumerLogger, Readiness, RebalanceTiming } from './kafkajs/consumer-types.js';
export { classifyCommitError } from './kafkajs/classify-commit-error.js';
export { toSourceRecords } from './kafkajs/source-records.js';
