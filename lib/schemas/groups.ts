import { z } from 'zod';

// Shared by GET /api/groups (which parses its output with it) and the UI hooks (which parse the
// response with it), so the two can never disagree silently. Offsets are int64 decimal strings.

const offset = z.string().regex(/^-?\d+$/);

export const ZPartitionLag = z.object({
  topic: z.string(),
  partition: z.number().int().min(0),
  committedOffset: offset.nullable(),
  logStartOffset: offset,
  logEndOffset: offset,
  /** Offsets behind the log end; null when the group never committed this partition. */
  lag: z.number().nullable(),
  memberClientId: z.string().nullable(),
  memberHost: z.string().nullable(),
});

export const ZGroupLag = z.object({
  groupId: z.string(),
  state: z.string(),
  sampledAt: z.iso.datetime(),
  /** Sum of the known partition lags. */
  totalLag: z.number(),
  /** Partitions the group never committed: their lag is unknown and not in totalLag. */
  partitionsWithoutCommit: z.number().int().min(0),
  partitions: z.array(ZPartitionLag),
});

export const ZGroupsResponse = z.object({ groups: z.array(ZGroupLag) });

export type TPartitionLag = z.infer<typeof ZPartitionLag>;
export type TGroupLag = z.infer<typeof ZGroupLag>;
export type TGroupsResponse = z.infer<typeof ZGroupsResponse>;
