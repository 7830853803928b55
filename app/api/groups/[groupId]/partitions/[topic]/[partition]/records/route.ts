// GET /api/groups/{groupId}/partitions/{topic}/{partition}/records - the records just before and after a quarantined partition's held offset.
import { ZPartitionRouteParams } from '@/lib/schemas/common';
import { respond, routeParams } from '@/lib/server/api-response';
import { authorize } from '@/lib/server/auth/request-auth';
import { serverDatabase } from '@/lib/server/database';
import { serverPayloadAccess, withRecordSource } from '@/lib/server/dead-letters/server-dead-letters';
import { readRecordsAround } from '@/lib/server/read-records-around';

export const dynamic = 'force-dynamic';

export async function GET(
  request: Request,
  { params }: { params: Promise<{ groupId: string; topic: string; partition: string }> },
) {
  return respond(async () => {
    const caller = await authorize(request, 'viewer');
    const target = await routeParams(ZPartitionRouteParams, params);
    const { showPayloads } = serverPayloadAccess(caller.role);
    return withRecordSource((source) => readRecordsAround(serverDatabase(), source, target, showPayloads));
  });
}
