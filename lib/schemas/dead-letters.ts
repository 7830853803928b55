import { z } from 'zod';
import { ZAuditReason, ZIsoTime, ZOffset, ZRequestedTime, ZTopicParam } from './common';

// The dead-letter topic and redrives. GET /api/dead-letters takes ZDeadLettersQuery and answers
// ZDeadLettersResponse; GET /api/dead-letters/counts answers ZDeadLetterCounts; GET /api/dead-letters/matches
// answers ZDeadLetterMatches (the count a redrive confirmation names); POST /api/dead-letters/redrives takes
// ZRedriveRequest and answers 202 with ZRedriveJob; GET /api/dead-letters/redrives answers ZRedriveJobsResponse;
// POST /api/dead-letters/redrives/{id} takes ZRedriveControl (pause, resume, cancel).

/** Who may see record payloads (previews of keys, values and headers): WARDEN_PAYLOAD_ACCESS. */
export const PAYLOAD_ACCESS_LEVELS = ['operator', 'viewer', 'none'] as const;
export const ZPayloadAccess = z.enum(PAYLOAD_ACCESS_LEVELS);
export type TPayloadAccess = z.infer<typeof ZPayloadAccess>;

/** Records one page holds at most, and the default. */
export const DEAD_LETTER_PAGE_MAX = 200;
export const DEAD_LETTER_PAGE_DEFAULT = 50;

const ZQueryPartition = z
  .string()
  .regex(/^\d{1,9}$/, 'must be a partition number (0 or more)')
  .transform(Number);

/** Which dead letters: every field narrows; absent fields match everything. */
export const ZDeadLetterFilter = z
  .object({
    sourceTopic: ZTopicParam.optional(),
    sourcePartition: z.number().int().min(0).optional(),
    errorClass: z.string().trim().min(1).max(200).optional(),
    /** The record key exactly as its preview shows it. */
    key: z.string().min(1).max(1_000).optional(),
    /** Dead letters written at or after this time. */
    from: ZRequestedTime.optional(),
    /** Dead letters written before this time. */
    to: ZRequestedTime.optional(),
  })
  .strict()
  .refine((f) => f.from === undefined || f.to === undefined || Date.parse(f.from) < Date.parse(f.to), {
    message: 'must be after from',
    path: ['to'],
  });
export type TDeadLetterFilter = z.infer<typeof ZDeadLetterFilter>;

/** The filter as query parameters (sourcePartition as digits). */
const filterQueryShape = {
  sourceTopic: ZTopicParam.optional(),
  sourcePartition: ZQueryPartition.optional(),
  errorClass: z.string().trim().min(1).max(200).optional(),
  key: z.string().min(1).max(1_000).optional(),
  from: ZRequestedTime.optional(),
  to: ZRequestedTime.optional(),
};

/** Per partition of the dead-letter topic, the offset (exclusive) the next, older page ends at: "0:120,1:88". */
export const ZDeadLetterCursor = z
  .string()
  .regex(/^\d{1,9}:\d{1,19}(,\d{1,9}:\d{1,19})*$/, 'must be a cursor from a previous page')
  .transform(
    (value) =>
      new Map(
        value.split(',').map((entry) => {
          const [partition, offset] = entry.split(':');
          return [Number(partition), BigInt(offset!)] as const;
        }),
      ),
  );

/** The filter's query parameters as they arrive (the API description documents these). */
export const ZDeadLetterFilterQueryParams = z.object(filterQueryShape).strict();

export const ZDeadLetterFilterQuery = ZDeadLetterFilterQueryParams.transform((q) => ZDeadLetterFilter.parse(q));

/** A page's query parameters as they arrive (the API description documents these). */
export const ZDeadLettersQueryParams = z
  .object({
    ...filterQueryShape,
    cursor: ZDeadLetterCursor.optional(),
    limit: z.coerce.number().int().min(1).max(DEAD_LETTER_PAGE_MAX).default(DEAD_LETTER_PAGE_DEFAULT),
  })
  .strict();

export const ZDeadLettersQuery = ZDeadLettersQueryParams.transform(({ cursor, limit, ...filter }) => ({
  cursor,
  limit,
  filter: ZDeadLetterFilter.parse(filter),
}));

export const ZRecordCoordinates = z.object({ topic: z.string(), partition: z.number().int().min(0), offset: ZOffset });

export const ZRedriveMark = z.object({
  jobId: z.string(),
  at: ZIsoTime,
  by: z.string(),
  targetTopic: z.string(),
});
export type TRedriveMark = z.infer<typeof ZRedriveMark>;

export const ZDeadLetter = z.object({
  /** Where the dead letter is, in the dead-letter topic. */
  dlq: ZRecordCoordinates,
  /** When it was dead-lettered (the record's own timestamp is kept in the copy: this is that timestamp). */
  timestamp: ZIsoTime,
  /** Where it came from; null fields when the headers are missing (a record not written by Warden). */
  source: z.object({
    topic: z.string().nullable(),
    partition: z.number().int().nullable(),
    offset: ZOffset.nullable(),
  }),
  errorClass: z.string().nullable(),
  errorMessage: z.string().nullable(),
  attempts: z.number().int().nullable(),
  /** Previews (valid UTF-8 with control characters escaped, else hex; size-capped); null when hidden or absent. */
  key: z.string().nullable(),
  preview: z.string().nullable(),
  previewTruncated: z.boolean(),
  valueBytes: z.number().int().min(0).nullable(),
  /** Every header but Warden's own source/error headers, previewed the same way; {} when payloads are hidden. */
  headers: z.record(z.string(), z.string()),
  /** True when WARDEN_PAYLOAD_ACCESS keeps this caller from the key, value and headers. */
  payloadHidden: z.boolean(),
  /** The newest redrive of this record, if any. */
  redriven: ZRedriveMark.nullable(),
});
export type TDeadLetter = z.infer<typeof ZDeadLetter>;

export const ZDeadLettersResponse = z.object({
  topic: z.string(),
  records: z.array(ZDeadLetter),
  /** Pass back as `cursor` for the next, older page; null when the filter's range is read to its start. */
  nextCursor: z.string().nullable(),
  /** Records read from the broker for this page, and the most one page reads before it stops. */
  scanned: z.number().int().min(0),
  scanLimit: z.number().int().min(1),
  payloadAccess: ZPayloadAccess,
});
export type TDeadLettersResponse = z.infer<typeof ZDeadLettersResponse>;

export const ZDeadLetterCounts = z.object({
  topic: z.string(),
  /** Records counted: the newest `scanned` of `total` in the topic (bounded: see scanLimit). */
  scanned: z.number().int().min(0),
  total: z.number().int().min(0),
  scanLimit: z.number().int().min(1),
  byErrorClass: z.array(z.object({ errorClass: z.string(), count: z.number().int() })),
  bySource: z.array(z.object({ topic: z.string(), partition: z.number().int().nullable(), count: z.number().int() })),
});
export type TDeadLetterCounts = z.infer<typeof ZDeadLetterCounts>;

export const ZDeadLetterMatches = z.object({
  topic: z.string(),
  /** Records matching the filter up to the log ends below; what a redrive of this filter would send. */
  count: z.number().int().min(0),
  /** Matching records already redriven (refused by a redrive unless forced). */
  alreadyRedriven: z.number().int().min(0),
  scanLimit: z.number().int().min(1),
});
export type TDeadLetterMatches = z.infer<typeof ZDeadLetterMatches>;

// --- Redrive ---------------------------------------------------------------------------------------------

/** 'rejected': refused when requested (records redriven before, without force); kept for the audit. */
export const REDRIVE_STATUSES = ['pending', 'running', 'paused', 'cancelled', 'done', 'failed', 'rejected'] as const;
export const ZRedriveStatus = z.enum(REDRIVE_STATUSES);
/** Statuses a job never leaves. */
export const FINAL_REDRIVE_STATUSES = ['cancelled', 'done', 'failed', 'rejected'] as const;

export const ZRedriveSelection = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('filter'), filter: ZDeadLetterFilter }).strict(),
  z
    .object({
      kind: z.literal('records'),
      records: z
        .array(z.object({ partition: z.number().int().min(0), offset: z.string().regex(/^\d{1,19}$/) }).strict())
        .min(1, 'must name at least one record')
        .max(1_000),
    })
    .strict(),
]);
export type TRedriveSelection = z.infer<typeof ZRedriveSelection>;

export const ZRedriveRequest = z
  .object({
    selection: ZRedriveSelection,
    reason: ZAuditReason,
    /** The count the operator confirmed; the job is refused (409) when the selection now matches another count. */
    expectedCount: z.number().int().min(1),
    /** Send records that were redriven before, too (else such a selection is refused, naming when and by whom). */
    force: z.boolean().default(false),
    /** Produce to this topic instead of each record's source topic (e.g. a retry topic). */
    targetTopic: ZTopicParam.optional(),
  })
  .strict();
export type TRedriveRequest = z.infer<typeof ZRedriveRequest>;

export const ZRedriveJob = z.object({
  id: z.string(),
  /** The cluster whose dead-letter topic it reads. */
  cluster: z.string(),
  dlqTopic: z.string(),
  selection: ZRedriveSelection,
  targetTopic: z.string().nullable(),
  reason: z.string(),
  requestedBy: z.string(),
  requestedAt: ZIsoTime,
  force: z.boolean(),
  status: ZRedriveStatus,
  ratePerSec: z.number(),
  total: z.number().int(),
  sent: z.number().int(),
  /** Records refused because they were redriven before (only without force: none, since such a job is refused). */
  skipped: z.number().int(),
  failed: z.number().int(),
  outcome: z.string().nullable(),
  executedBy: z.string().nullable(),
  updatedAt: ZIsoTime,
  completedAt: ZIsoTime.nullable(),
});
export type TRedriveJob = z.infer<typeof ZRedriveJob>;

export const ZRedriveJobsResponse = z.object({ jobs: z.array(ZRedriveJob) });
export type TRedriveJobsResponse = z.infer<typeof ZRedriveJobsResponse>;

export const ZRedriveControl = z
  .object({ action: z.enum(['pause', 'resume', 'cancel']), reason: ZAuditReason })
  .strict();
export type TRedriveControl = z.infer<typeof ZRedriveControl>;

export const ZRedriveIdParams = z.object({ id: z.string().regex(/^\d{1,19}$/, 'must be a redrive id') });

/** Headers a redriven record carries besides the original ones. */
export const REDRIVE_HEADERS = {
  /** "<dlq topic>/<partition>/<offset>": the dead letter this record was sent from. */
  of: 'warden-redrive-of',
  id: 'warden-redrive-id',
} as const;
