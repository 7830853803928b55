import type { CoreEvent } from '@warden/consumer';
import type { Logger } from './logger';

/**
 * Structured logs for the core's events: coordinates and error classes, never payloads. Per-record
 * successes are debug-level; anything an operator must see is warn or error.
 */
export function logCoreEvent(logger: Logger, event: CoreEvent): void {
  switch (event.type) {
    case 'completed':
    case 'committed':
    case 'redelivered':
    case 'backpressure':
    case 'batch-dropped':
    case 'late-completion-ignored':
      logger.debug({ event: event.type, ...coordinates(event) }, event.type);
      return;
    case 'retry-scheduled':
      logger.info(
        {
          event: event.type,
          ...coordinates(event),
          attempt: event.attempt,
          delayMs: event.delayMs,
          error: errorSummary(event.error),
        },
        'transient failure; retrying in place',
      );
      return;
    case 'quarantined':
      logger.warn(
        {
          event: event.type,
          topic: event.quarantine.topic,
          partition: event.quarantine.partition,
          offset: event.quarantine.offset,
          errorClass: event.quarantine.errorClass,
          reason: event.quarantine.reason,
        },
        'partition quarantined at a record that cannot complete',
      );
      return;
    case 'fatal':
      logger.error({ event: event.type, reason: event.reason }, 'consumer core fatal');
      return;
    case 'commit-failed':
      logger.warn(
        { event: event.type, errorClass: event.errorClass, error: errorSummary(event.error) },
        'commit failed',
      );
      return;
    default:
      logger.info({ event: event.type, ...coordinates(event) }, event.type);
  }
}

function coordinates(event: object) {
  const { topic, partition, offset } = event as { topic?: string; partition?: number; offset?: string };
  return { topic, partition, offset };
}

function errorSummary(error: unknown) {
  return error instanceof Error ? { type: error.name, message: error.message } : { type: typeof error };
}
