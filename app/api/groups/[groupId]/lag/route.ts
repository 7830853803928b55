// GET /api/groups/{groupId}/lag?range=|from=&to=&step= - per-partition lag, time lag and rate series for charts.
import { ZGroupRouteParams } from '@/lib/schemas/common';
import { ZLagSeriesQuery } from '@/lib/schemas/groups';
import { queryOf, respond, routeParams } from '@/lib/server/api-response';
import { serverDatabase } from '@/lib/server/database';
import { getLagSeries, resolveSeriesWindow } from '@/lib/server/get-lag-series';
import { authorize } from '@/lib/server/auth/request-auth';

export const dynamic = 'force-dynamic';

export async function GET(request: Request, { params }: { params: Promise<{ groupId: string }> }) {
  return respond(async () => {
    await authorize(request, 'viewer');
    const { groupId } = await routeParams(ZGroupRouteParams, params);
    const window = resolveSeriesWindow(ZLagSeriesQuery.parse(queryOf(request)), Date.now());
    return getLagSeries(serverDatabase(), groupId, window);
  });
}
