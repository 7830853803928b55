// GET /api/alerts[?cluster=] - open alerts, history, active silences, each alert's notifications and deliveries;
// of every cluster, or of the one named.
import { loadDashboardConfig } from '@/lib/server/dashboard-config';
import { respond } from '@/lib/server/api-response';
import { serverDatabase } from '@/lib/server/database';
import { listAlerts } from '@/lib/server/list-alerts';
import { authorize } from '@/lib/server/auth/request-auth';
import { clusterFilter } from '@/lib/server/request-cluster';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return respond(async () => {
    await authorize(request, 'viewer');
    const cluster = clusterFilter(request, loadDashboardConfig().clusters);
    return listAlerts(serverDatabase(), { cluster });
  });
}
