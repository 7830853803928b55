// GET /api/audit?cluster=&groupId=&kind=&limit= - every operator action (who, what, target, reason, when,
// outcome) and access event, newest first; of every cluster, or of the one named (then without access events).
import { loadDashboardConfig } from '@/lib/server/dashboard-config';
import { ZAuditQuery } from '@/lib/schemas/operator-actions';
import { respond } from '@/lib/server/api-response';
import { serverDatabase } from '@/lib/server/database';
import { listAudit } from '@/lib/server/list-audit';
import { authorize } from '@/lib/server/auth/request-auth';
import { clusterFilter, queryWithoutCluster } from '@/lib/server/request-cluster';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return respond(async () => {
    await authorize(request, 'viewer');
    const cluster = clusterFilter(request, loadDashboardConfig().clusters);
    return listAudit(serverDatabase(), { ...ZAuditQuery.parse(queryWithoutCluster(request)), cluster });
  });
}
