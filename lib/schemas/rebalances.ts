import { z } from 'zod';
import { ZIsoTime } from './common';

// GET /api/rebalances?groupId=&limit=: rebalance history, newest first.

export const ZRebalancesQuery = z
  .object({
    groupId: z.string().min(1).max(255).optional(),
    limit: z
      .string()
      .regex(/^\d{1,4}$/, 'must be a whole number')
      .transform(Number)
      .refine((n) => n >= 1 && n <= 1000, 'must be between 1 and 1000')
      .optional(),
  })
  .strict();

export const ZRebalance = z.object({
  id: z.string(),
  groupId: z.string(),
  /** 'own-consumer' (measured from Warden's consumer events) or 'describe-groups' (inferred between samples). */
  source: z.string(),
  startedAt: ZIsoTime,
  endedAt: ZIsoTime.nullable(),
  durationMs: z.number().nullable(),
  /** The duration is an upper bound ("at most"), inferred from two samples. */
  durationIsBound: z.boolean(),
  /** Members as display strings (client id, host or member id, whatever the recorder kept). */
  membersBefore: z.array(z.string()),
  membersAfter: z.array(z.string()),
  partitionsMoved: z.number().int(),
  trigger: z.string(),
});

export const ZRebalancesResponse = z.object({ rebalances: z.array(ZRebalance) });

export type TRebalance = z.infer<typeof ZRebalance>;
export type TRebalancesResponse = z.infer<typeof ZRebalancesResponse>;
