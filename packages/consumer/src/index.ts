// @warden/consumer: a partition-isolating Kafka consumer on kafkajs. `createConsumer` is the entry point; the
// pure core (ConsumerCore and its types) is exported for hosts that bring their own Kafka client.

export * from './core/index.js';
export { createConsumer, WardenConsumer } from './kafkajs/warden-consumer.js';
export type { WardenConsumerOptions } from './kafkajs/warden-consumer.js';
export type { ConsumerLogger, Readiness, RebalanceTiming } from './kafkajs/consumer-types.js';
export { classifyCommitError } from './kafkajs/classify-commit-error.js';
export { toSourceRecords } from './kafkajs/source-records.js';

// The control plane over Kafka (docs/control-protocol.md): the wire protocol Warden's worker and any other
// implementation speak, the topics' settings, signing, previews, and how a command is applied.
export * from './control/protocol.js';
export { signControlMessage, verifyControlSignature } from './control/signing.js';
export { previewOf } from './control/record-preview.js';
export {
  COMMAND_TOPIC_RETENTION_MS,
  controlTopicConfigs,
  ensureControlTopics,
  STATE_TOPIC_PARTITIONS,
  type ControlTopicsAdmin,
  type EnsureTopicsResult,
} from './control/control-topics.js';
export {
  DEFAULT_CONTROL_TOPIC_PREFIX,
  DEFAULT_STATE_INTERVAL_MS,
  type ControlOptions,
} from './control/control-options.js';
export type { ConsumerControl, ControlStats } from './control/control-plane.js';
export {
  adminOffsetPorts,
  applyCommand,
  type ApplyCore,
  type ApplyOutcome,
  type ApplyPorts,
  type DeadLetterPort,
  type OffsetAdmin,
  type OffsetPorts,
} from './control/apply-command.js';
export { PACKAGE_VERSION } from './control/package-version.js';
export { defineHandler, readHandlerModule } from './handler-module.js';
export type { HandlerModule, ReadHandlerModule } from './handler-module.js';
