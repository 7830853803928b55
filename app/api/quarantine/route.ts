// GET /api/quarantine - every quarantined partition with its held record, log range and pending action.
import { respond } from '@/lib/server/api-response';
import { serverDatabase } from '@/lib/server/database';
import { listQuarantines } from '@/lib/server/list-quarantines';
import { authorize } from '@/lib/server/auth/request-auth';
import { serverPayloadAccess } from '@/lib/server/dead-letters/server-dead-letters';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return respond(async () => {
    const caller = await authorize(request, 'viewer');
    return listQuarantines(serverDatabase(), { showPayloads: serverPayloadAccess(caller.role).showPayloads });
  });
}
