// Public API of the pure consumer core. Adapters (kafkajs, Prisma, HTTP) import from here only.

export { ConsumerCore } from './consumer-core.js';
export type { DeliverResult } from './consumer-core.js';
export { CONSUMER_CORE_DEFAULTS } from './consumer-core-options.js';
export type { ConsumerCoreOptions } from './consumer-core-options.js';
export { backoffCeilingMs, backoffDelayMs, DEFAULT_BACKOFF } from './backoff.js';
export type { BackoffJitter, BackoffPolicy } from './backoff.js';
export { defaultClassifyError, describeError } from './classify-error.js';
export {
  COMPLETED_ABOVE_VERSION,
  decodeCompletedAbove,
  encodeCompletedAbove,
  INT64_MAX,
  nextCommitOffset,
  parseOffset,
} from './offsets.js';
export { topicPartitionKey, formatTopicPartition } from './topic-partition.js';
export type * from './types.js';
