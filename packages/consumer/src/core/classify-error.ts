// "What changes if we try again?" Only failures that heal by themselves are transient; anything
// unrecognised is permanent, so a bad input never holds a retry slot forever.

import type { ErrorClass } from './types.js';

const TRANSIENT_TEXT = new RegExp(
  [
    'timeout',
    'timed out',
    'ECONNREFUSED',
    'ECONNRESET',
    'ECONNABORTED',
    'ETIMEDOUT',
    'EPIPE',
    'EAI_AGAIN',
    'EHOSTUNREACH',
    'ENETUNREACH',
    'socket hang up',
    'KafkaJSConnectionError',
    'KafkaJSConnectionClosedError',
    'KafkaJSRequestTimeoutError',
    'KafkaJSNumberOfRetriesExceeded',
    'KafkaJSLockTimeout',
    'LEADER_NOT_AVAILABLE',
    'NOT_LEADER',
    'NOT_COORDINATOR',
    'COORDINATOR_NOT_AVAILABLE',
    'COORDINATOR_LOAD_IN_PROGRESS',
    'REBALANCE_IN_PROGRESS',
    'rebalanc',
    'transient',
    'temporar',
    'unavailable',
    'too many requests',
  ]
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|'),
  'i',
);

const MAX_CAUSE_DEPTH = 5;

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null) return '';
  const record = value as Record<string, unknown>;
  return ['name', 'code', 'type', 'message']
    .map((field) => record[field])
    .filter((field): field is string => typeof field === 'string')
    .join(' ');
}

/**
 * Default classifier: transient when the error (or one of its `cause` / `originalError` links) says
 * `retriable === true`, or its name, code, type or message looks like a connection, timeout, leadership or
 * rebalance problem, or mentions "transient". Everything else, including programming errors, is permanent.
 */
export function defaultClassifyError(err: unknown): ErrorClass {
  let current: unknown = err;
  for (let depth = 0; depth <= MAX_CAUSE_DEPTH && current !== undefined && current !== null; depth++) {
    if (typeof current === 'object' && (current as { retriable?: unknown }).retriable === true) return 'transient';
    if (TRANSIENT_TEXT.test(textOf(current))) return 'transient';
    if (typeof current !== 'object') break;
    const links = current as { cause?: unknown; originalError?: unknown };
    current = links.cause ?? links.originalError;
  }
  return 'permanent';
}

/** One line for logs, reasons and dead-letter headers. Never throws. */
export function describeError(err: unknown, maxLength = 500): string {
  let text: string;
  try {
    if (err instanceof Error) text = err.message ? `${err.name}: ${err.message}` : err.name;
    else if (typeof err === 'string') text = err;
    else text = JSON.stringify(err) ?? String(err);
  } catch {
    text = Object.prototype.toString.call(err);
  }
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}
