// GET /api/groups - every recently sampled consumer group with status, lag, worst time lag and trend, worst first.
import { loadDashboardConfig } from '@/lib/config';
import { analysisOptions } from '@/lib/server/analysis-options';
import { respond } from '@/lib/server/api-response';
import { serverDatabase } from '@/lib/server/database';
import { listGroups } from '@/lib/server/list-groups';
import { authorize } from '@/lib/server/auth/request-auth';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return respond(async () => {
    await authorize(request, 'viewer');
    return listGroups(serverDatabase(), analysisOptions(loadDashboardConfig()));
  });
}
