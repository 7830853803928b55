import type { ErrorClass } from '@warden/consumer';

// What changes if we try again? Transient: the database or broker is unreachable, overloaded,
// restarting, or a transaction lost a race; those heal. Permanent: the store rejects this very record (bad
// data, constraint), which no retry can change. Unknown errors are permanent: a permanent error held in a
// retry slot stalls its key forever, while a permanent classification still publishes a `failed` result.

const TRANSIENT_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const TRANSIENT_PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2034']);
const TRANSIENT_ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'TooManyConnections',
  'SocketTimeout',
  'TransactionWriteConflict',
  'TlsConnectionError',
]);
/** SQLSTATE classes that heal: connection (08), rollback/serialization (40), resources (53), operator (57). */
const TRANSIENT_SQLSTATE_CLASSES = new Set(['08', '40', '53', '57']);
const TRANSIENT_SQLSTATES = new Set(['55P03']);
const TRANSIENT_KAFKAJS_NAMES = new Set([
  'KafkaJSConnectionError',
  'KafkaJSRequestTimeoutError',
  'KafkaJSConnectionClosedError',
  'KafkaJSNumberOfRetriesExceeded',
  'KafkaJSBrokerNotFound',
  'KafkaJSLockTimeout',
]);

/**
 * node-postgres raises connection loss as plain Errors with these messages (no code), and the Prisma pg
 * adapter passes them through unwrapped. Found by the db-outage verification scenario.
 */
const TRANSIENT_PG_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /connection error and is not queryable/,
  /^Client was closed and is not queryable/,
  /^Query read timeout/,
];

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  retriable?: unknown;
  cause?: unknown;
  severity?: unknown;
  meta?: { driverAdapterError?: { cause?: unknown } };
}

/** A five-character SQLSTATE as node-postgres's DatabaseError carries it in `code` (with a `severity`). */
const SQLSTATE = /^[0-9A-Z]{5}$/;

export function classifyPipelineError(error: unknown): ErrorClass {
  return isTransient(error, 0) ? 'transient' : 'permanent';
}

function isTransient(error: unknown, depth: number): boolean {
  if (depth > 4 || typeof error !== 'object' || error === null) return false;
  const e = error as ErrorLike;
  if (e.name === 'PrismaClientInitializationError') return true;
  if (typeof e.name === 'string' && TRANSIENT_KAFKAJS_NAMES.has(e.name)) return true;
  if (e.retriable === true) return true;
  if (typeof e.message === 'string' && TRANSIENT_PG_MESSAGES.some((pattern) => pattern.test(e.message as string)))
    return true;
  if (typeof e.code === 'string' && (TRANSIENT_NODE_CODES.has(e.code) || TRANSIENT_PRISMA_CODES.has(e.code)))
    return true;
  if (typeof e.code === 'string' && typeof e.severity === 'string' && SQLSTATE.test(e.code))
    return isTransientSqlState(e.code);
  if (isTransientAdapterCause(e.meta?.driverAdapterError?.cause)) return true;
  if (e.name === 'DriverAdapterError' && isTransientAdapterCause(e.cause)) return true;
  return isTransient(e.cause, depth + 1);
}

function isTransientAdapterCause(cause: unknown): boolean {
  if (typeof cause !== 'object' || cause === null) return false;
  const { kind, code } = cause as { kind?: unknown; code?: unknown };
  if (typeof kind === 'string' && TRANSIENT_ADAPTER_KINDS.has(kind)) return true;
  return kind === 'postgres' && typeof code === 'string' && isTransientSqlState(code);
}

function isTransientSqlState(code: string): boolean {
  return TRANSIENT_SQLSTATES.has(code) || TRANSIENT_SQLSTATE_CLASSES.has(code.slice(0, 2));
}
