// GET /api/rebalances?groupId=&limit= - rebalance history, newest first.
import { ZRebalancesQuery } from '@/lib/schemas/rebalances';
import { queryOf, respond } from '@/lib/server/api-response';
import { serverDatabase } from '@/lib/server/database';
import { listRebalances } from '@/lib/server/list-rebalances';
import { authorize } from '@/lib/server/auth/request-auth';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return respond(async () => {
    await authorize(request, 'viewer');
    return listRebalances(serverDatabase(), ZRebalancesQuery.parse(queryOf(request)));
  });
}
