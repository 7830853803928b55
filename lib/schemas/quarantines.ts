import { z } from 'zod';
import { ZIsoTime, ZOffset } from './common';
import { ZTimeLag } from './groups';
import { ZOperatorAction } from './operator-actions';

// GET /api/quarantine: every partition a Warden consumer holds at a record it could not process.

/** Longest preview the API sends; the worker stores at most 2,048 characters already. */
export const PREVIEW_MAX_CHARS = 4_096;

export const ZQuarantine = z.object({
  /** The watched cluster the group is in (lib/kafka/cluster-settings.ts); `default` for the single-cluster setup. */
  cluster: z.string(),
  groupId: z.string(),
  topic: z.string(),
  partition: z.number().int().min(0),
  /** The held record; nothing at or after it is committed while the quarantine holds. */
  offset: ZOffset,
  reason: z.string(),
  errorClass: z.string(),
  /** When a consumer first stopped at this record; kept across rebalances and failed resumes. */
  since: ZIsoTime,
  /** When the current hold began. */
  heldSince: ZIsoTime,
  /** Times a consumer stopped at this record (a resume that failed again, a re-read after a rebalance). */
  failures: z.number().int().min(1),
  /** Handler attempts over every hold; 0 when the record only ever failed admission. */
  attempts: z.number().int().min(0),
  /** Set while an operator's resume retries the record: not held, but the partition has not passed it yet. */
  retrying: z.object({ since: ZIsoTime, actionId: z.string() }).nullable(),
  /**
   * What the hold costs, from the newest sample: the records behind the committed offset (null before the
   * first sample or commit) and how old the oldest of them is, with its kind and basis as the group pages
   * give it ('lower-bound' reads "at least", 'unknown' has no figure).
   */
  blocking: z.object({ records: z.number().nullable(), timeLag: ZTimeLag }),
  /** Every operator action on this record (this offset), oldest first. */
  history: z.array(ZOperatorAction),
  record: z.object({
    key: z.string().nullable(),
    /** Size-capped preview; valid UTF-8 with control characters escaped, anything else as hex. Render as text. */
    preview: z.string().nullable(),
    previewTruncated: z.boolean(),
    headers: z.record(z.string(), z.string().nullable()),
    timestamp: ZIsoTime.nullable(),
    /** True when WARDEN_PAYLOAD_ACCESS keeps this caller from the key, preview and headers (then null / {}). */
    payloadHidden: z.boolean(),
  }),
  /** From the latest sample of the group, for validating a seek; null when the partition was not sampled yet. */
  logStartOffset: ZOffset.nullable(),
  logEndOffset: ZOffset.nullable(),
  committedOffset: ZOffset.nullable(),
  lag: z.number().nullable(),
  /** The partition's owner as the newest sample saw it (the group's member); null when unassigned. */
  owner: z.object({ clientId: z.string(), host: z.string().nullable() }).nullable(),
  /** The consumer instance that reported the newest hold (`client id@host/pid` unless it names itself); null when not known. */
  heldBy: z.string().nullable(),
  /**
   * The live instance that owns the partition by its newest report over the control plane (the one that would
   * apply an action now); null when no live instance of the group owns it.
   */
  liveOwner: z.string().nullable(),
  /**
   * The action waiting to be applied, if any: a second one is refused until it settles. Its relayedAt and
   * expiresAt, with liveOwner, say where it stands.
   */
  pendingAction: ZOperatorAction.nullable(),
});

export const ZQuarantinesResponse = z.object({ quarantines: z.array(ZQuarantine) });

export type TQuarantine = z.infer<typeof ZQuarantine>;
export type TQuarantinesResponse = z.infer<typeof ZQuarantinesResponse>;

// GET /api/groups/{groupId}/partitions/{topic}/{partition}/records: the records around the held one, read
// from the broker, so an operator sees whether the bad record is alone or the start of a bad batch.

/** Records shown before the held one, and after it. */
export const AROUND_BEFORE = 5;
export const AROUND_AFTER = 20;

export const ZPartitionRecord = z.object({
  offset: ZOffset,
  timestamp: ZIsoTime,
  /** Previews as on the card (escaped, size-capped); null when hidden or absent. */
  key: z.string().nullable(),
  preview: z.string().nullable(),
  headers: z.record(z.string(), z.string()),
  valueBytes: z.number().int().min(0).nullable(),
});

export const ZRecordsAround = z.object({
  heldOffset: ZOffset,
  before: z.array(ZPartitionRecord),
  held: ZPartitionRecord.nullable(),
  after: z.array(ZPartitionRecord),
  payloadHidden: z.boolean(),
});
export type TRecordsAround = z.infer<typeof ZRecordsAround>;
export type TPartitionRecord = z.infer<typeof ZPartitionRecord>;
