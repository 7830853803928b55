// POST /api/groups/{groupId}/losses/{lossId}/acknowledge - an operator acknowledges records the topic's
// retention deleted unread, with a reason: the partition is no longer LOST, its alert resolves, the audit keeps
// who, when and why. ?cluster= names the cluster (default: default).
import { loadDashboardConfig } from '@/lib/server/dashboard-config';
import { ZLossAcknowledgeRequest, ZLossRouteParams } from '@/lib/schemas/record-losses';
import { acknowledgeRecordLoss } from '@/lib/server/acknowledge-record-loss';
import { readJsonBody, respond, routeParams } from '@/lib/server/api-response';
import { serverDatabase } from '@/lib/server/database';
import { authorize } from '@/lib/server/auth/request-auth';
import { requestedCluster } from '@/lib/server/request-cluster';

export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ groupId: string; lossId: string }> }) {
  return respond(async () => {
    const operator = await authorize(request, 'operator');
    const cluster = requestedCluster(request, loadDashboardConfig().clusters);
    const { groupId, lossId } = await routeParams(ZLossRouteParams, params);
    const body = ZLossAcknowledgeRequest.parse(await readJsonBody(request));
    return acknowledgeRecordLoss(
      serverDatabase(),
      { cluster, groupId, lossId: BigInt(lossId) },
      body.reason,
      operator.name,
    );
  });
}
