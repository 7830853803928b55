import type { ErrorClass } from '../core/index.js';

/**
 * Offset-commit errors that mean "the group moved on" or "the coordinator is busy": the commit is retried
 * after the rejoin, where the core commits only what it still owns. A kill -9 of another member makes the
 * next commit fail with ILLEGAL_GENERATION; treating that as fatal would stop a healthy worker (found by
 * the kill9 verification scenario).
 */
const REJOIN_OR_RETRY_TYPES = new Set([
  'ILLEGAL_GENERATION',
  'UNKNOWN_MEMBER_ID',
  'REBALANCE_IN_PROGRESS',
  'NOT_COORDINATOR',
  'NOT_COORDINATOR_FOR_GROUP',
  'COORDINATOR_NOT_AVAILABLE',
  'GROUP_COORDINATOR_NOT_AVAILABLE',
  'COORDINATOR_LOAD_IN_PROGRESS',
  'GROUP_LOAD_IN_PROGRESS',
  'FENCED_INSTANCE_ID',
  'REQUEST_TIMED_OUT',
  'NETWORK_EXCEPTION',
]);
const TRANSIENT_NAMES = new Set([
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
  'KafkaJSRequestTimeoutError',
  'KafkaJSNumberOfRetriesExceeded',
  'KafkaJSBrokerNotFound',
  'KafkaJSGroupCoordinatorNotFound',
]);

/** Everything else (authorization, metadata too large, unknown topic) is permanent: the core turns fatal. */
export function classifyCommitError(error: unknown): ErrorClass {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const e = current as { name?: unknown; type?: unknown; retriable?: unknown; cause?: unknown; message?: unknown };
    if (typeof e.type === 'string' && REJOIN_OR_RETRY_TYPES.has(e.type)) return 'transient';
    if (typeof e.name === 'string' && TRANSIENT_NAMES.has(e.name)) return 'transient';
    if (e.retriable === true) return 'transient';
    // The adapter's own "no consumer right now" (between a crash and the restart's join).
    if (e.message === 'no running consumer to commit with') return 'transient';
    current = e.cause;
  }
  return 'permanent';
}
