import { z } from 'zod';
import { REASON_MAX_CHARS } from './values';

// Building blocks shared by every API schema. Offsets are int64 decimal strings (JSON numbers lose precision
// above 2^53); times are ISO-8601 strings in UTC.

export const ZOffset = z.string().regex(/^-?\d+$/, 'must be an integer offset');
export const ZIsoTime = z.iso.datetime();

/** Postgres text cannot hold U+0000; a value with one could never match a stored row, and would fail the query. */
const NO_NUL = [(value: string) => !value.includes('\u0000'), 'must not contain a NUL character'] as const;

/** A consumer group id as it appears in a URL segment or query (already decoded). */
export const ZGroupIdParam = z
  .string()
  .min(1, 'is required')
  .max(255, 'must be at most 255 characters')
  .refine(...NO_NUL);

/** Kafka's own rule for topic names. */
export const ZTopicParam = z
  .string()
  .regex(/^[a-zA-Z0-9._-]{1,249}$/, 'must be a Kafka topic name (letters, digits, . _ -)');

/** A partition number in a URL segment: digits only, so "", "1.5", "-1" and "0x1" are all refused. */
export const ZPartitionParam = z
  .string()
  .regex(/^\d{1,9}$/, 'must be a partition number (0 or more)')
  .transform(Number);

/** Every 4xx/5xx body: one human sentence, and the offending field, null when no field applies. */
export const ZApiError = z.object({ error: z.string(), field: z.string().nullable() });
export type TApiError = z.infer<typeof ZApiError>;

export const ZTopicPartition = z.object({ topic: z.string(), partition: z.number().int().min(0) });

export const ZGroupRouteParams = z.object({ groupId: ZGroupIdParam });
export const ZPartitionRouteParams = z.object({
  groupId: ZGroupIdParam,
  topic: ZTopicParam,
  partition: ZPartitionParam,
});

// Fields of the operator's request bodies (quarantine actions, offset resets).

/** Why the operator acts; required, for the audit log. */
export const ZAuditReason = z
  .string({ error: 'is required: say why, for the audit log' })
  .trim()
  .min(1, 'is required: say why, for the audit log')
  .max(REASON_MAX_CHARS, `must be at most ${REASON_MAX_CHARS} characters`)
  .refine(...NO_NUL);
/** An offset an operator typed: whole and non-negative (checked against the partition's log elsewhere). */
export const ZRequestedOffset = z
  .string({ error: 'must be a string of digits' })
  .regex(/^\d{1,19}$/, 'must be a whole, non-negative offset');
export const ZRequestedTime = z.iso.datetime({
  offset: true,
  error: 'must be an ISO-8601 time, e.g. 2026-11-29T12:00:00Z',
});
