import { z } from 'zod';
import { ZIsoTime, ZOffset } from './common';
import { ZOperatorAction } from './operator-actions';

// GET /api/quarantine: every partition a Warden consumer holds at a record it could not process.

/** Longest preview the API sends; the worker stores at most 2,048 characters already. */
export const PREVIEW_MAX_CHARS = 4_096;

export const ZQuarantine = z.object({
  groupId: z.string(),
  topic: z.string(),
  partition: z.number().int().min(0),
  /** The held record; nothing at or after it is committed while the quarantine holds. */
  offset: ZOffset,
  reason: z.string(),
  errorClass: z.string(),
  since: ZIsoTime,
  attempts: z.number().int().min(0),
  record: z.object({
    key: z.string().nullable(),
    /** Size-capped preview; valid UTF-8 with control characters escaped, anything else as hex. Render as text. */
    preview: z.string().nullable(),
    previewTruncated: z.boolean(),
    headers: z.record(z.string(), z.string().nullable()),
    timestamp: ZIsoTime.nullable(),
  }),
  /** From the latest sample of the group, for validating a seek; null when the partition was not sampled yet. */
  logStartOffset: ZOffset.nullable(),
  logEndOffset: ZOffset.nullable(),
  committedOffset: ZOffset.nullable(),
  lag: z.number().nullable(),
  owner: z.object({ clientId: z.string(), host: z.string().nullable() }).nullable(),
  /** The action waiting for the owning worker, if any: a second one is refused until it settles. */
  pendingAction: ZOperatorAction.nullable(),
});

export const ZQuarantinesResponse = z.object({ quarantines: z.array(ZQuarantine) });

export type TQuarantine = z.infer<typeof ZQuarantine>;
export type TQuarantinesResponse = z.infer<typeof ZQuarantinesResponse>;
