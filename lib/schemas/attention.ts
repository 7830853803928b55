import { z } from 'zod';

// GET /api/attention: what the top bar counts on every page, without the lists behind the counts.

export const ZAttention = z.object({
  /** Partitions held at a record (GET /api/quarantine lists them), a resumed one retrying its record included. */
  quarantinedPartitions: z.number().int().min(0),
  /** Alerts firing now, silenced or not, on every cluster (GET /api/alerts lists them). */
  firingAlerts: z.number().int().min(0),
});
export type TAttention = z.infer<typeof ZAttention>;
