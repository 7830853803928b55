// Types the worker's adapters share (kafka, sampler, commands, http, metrics, pipeline may not import one
// another; see eslint.config.mjs). Types only, plus the instance id every adapter names this process by.
import { hostname } from 'node:os';
export type { ConsumerLogger, Readiness, RebalanceTiming } from '@warden/consumer';

/** This worker instance's name in sampler_gap, consumer_partition_state and the audit: client id @ host / pid. */
export function workerInstanceId(clientId: string): string {
  return `${clientId}@${hostname()}/${process.pid}`;
}
