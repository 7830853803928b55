import type { Database } from '../../db';
import { ZRedriveJobsResponse, type TRedriveJobsResponse } from '../../schemas/dead-letters';
import { redriveJobJson } from './redrive-job-json';

/** GET /api/dead-letters/redrives: the newest redrive jobs (refused ones included), newest first. */
export async function listRedrives(
  db: Database,
  options: { cluster: string; limit?: number },
): Promise<TRedriveJobsResponse> {
  const rows = await db.redriveJob.findMany({
    where: { cluster: options.cluster },
    orderBy: [{ requestedAt: 'desc' }, { id: 'desc' }],
    take: options.limit ?? 50,
  });
  return ZRedriveJobsResponse.parse({ jobs: rows.map(redriveJobJson) });
}
