// Whether a failed write is the message's fault (Postgres refuses its data: retrying can never help) or the
// database's (down, restarting, a lost race: retrying heals it). Only the first kind skips a message; anything
// not recognised as bad data is retried, since skipping loses a report and retrying only waits.

/** Prisma's codes for a value its column or query cannot take. */
const DATA_PRISMA_CODES = new Set([
  'P2000',
  'P2005',
  'P2006',
  'P2007',
  'P2009',
  'P2011',
  'P2012',
  'P2019',
  'P2020',
  'P2023',
  'P2033',
]);
/** The Prisma pg adapter's kinds for the same. A unique violation is not one: it is a race a retry resolves. */
const DATA_ADAPTER_KINDS = new Set([
  'LengthMismatch',
  'ValueOutOfRange',
  'NullConstraintViolation',
  'ForeignKeyConstraintViolation',
]);
/** SQLSTATE 22 (data exception) and 23 (integrity) but 23505 (unique violation: a race). */
const DATA_SQLSTATE = /^2[23][0-9A-Z]{3}$/;

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  kind?: unknown;
  originalCode?: unknown;
  severity?: unknown;
  cause?: unknown;
  meta?: { code?: unknown; driverAdapterError?: { cause?: unknown } };
}

export function isDataError(error: unknown, depth = 0): boolean {
  if (depth > 4 || typeof error !== 'object' || error === null) return false;
  const e = error as ErrorLike;
  if (e.name === 'PrismaClientValidationError') return true;
  if (typeof e.code === 'string' && DATA_PRISMA_CODES.has(e.code)) return true;
  if (typeof e.kind === 'string' && DATA_ADAPTER_KINDS.has(e.kind)) return true;
  // The SQLSTATE as the adapter keeps it, as a raw query's error (P2010) carries it, and as node-postgres raises it.
  const postgres = e.kind === 'postgres' || typeof e.severity === 'string';
  for (const code of [e.originalCode, e.meta?.code, postgres ? e.code : undefined]) {
    if (typeof code === 'string' && DATA_SQLSTATE.test(code) && code !== '23505') return true;
  }
  return isDataError(e.meta?.driverAdapterError?.cause, depth + 1) || isDataError(e.cause, depth + 1);
}
