// Public API of the pure consumer core. Adapters (kafkajs, Prisma, HTTP) import from here only.

export { ConsumerCore } from './consumer-core';
export type { DeliverResult } from './consumer-core';
export { CONSUMER_CORE_DEFAULTS } from './consumer-core-options';
export type { ConsumerCoreOptions } from './consumer-core-options';
export { backoffCeilingMs, backoffDelayMs, DEFAULT_BACKOFF } from './backoff';
export type { BackoffJitter, BackoffPolicy } from './backoff';
export { defaultClassifyError, describeError } from './classify-error';
export {
  COMPLETED_ABOVE_VERSION,
  decodeCompletedAbove,
  encodeCompletedAbove,
  INT64_MAX,
  nextCommitOffset,
  parseOffset,
} from './offsets';
export { topicPartitionKey, formatTopicPartition } from './topic-partition';
export type * from './types';
