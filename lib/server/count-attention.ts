import type { Database } from '../db';
import type { TAttention } from '../schemas/attention';

/**
 * GET /api/attention: the two counts of the top bar, counted in the database. They count exactly what GET
 * /api/quarantine and GET /api/alerts list (every held partition; every firing alert of every cluster), so a
 * page that shows a list and the top bar's count never disagree about the same moment.
 */
export async function countAttention(db: Database): Promise<TAttention> {
  const [quarantinedPartitions, firingAlerts] = await Promise.all([
    db.partitionQuarantine.count(),
    db.alert.count({ where: { phase: 'firing' } }),
  ]);
  return { quarantinedPartitions, firingAlerts };
}
