import type { WorkerConfig } from '../config';

// Consumer groups the worker and the control plane run for themselves: the sampler never lists them as
// monitored groups, and the offsets-topic reader keeps none of their commits.

/**
 * The start of every consumer group the control plane uses (the worker's state ingester, each service's
 * command reader): never sampled, their commits never kept.
 */
export function controlGroupPrefix(config: Pick<WorkerConfig, 'WARDEN_CONTROL_TOPIC_PREFIX'>): string {
  return `${config.WARDEN_CONTROL_TOPIC_PREFIX}.`;
}

/** The offsets-topic reader's consumer group: shared by every worker instance of a deployment, never sampled. */
export function offsetsReaderGroupId(config: Pick<WorkerConfig, 'WARDEN_GROUP_ID'>): string {
  return `${config.WARDEN_GROUP_ID}.offsets-reader`;
}
