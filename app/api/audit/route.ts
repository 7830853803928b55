// GET /api/audit?groupId=&limit= - every operator action (who, what, target, reason, when, outcome), newest first.
import { ZAuditQuery } from '@/lib/schemas/operator-actions';
import { queryOf, respond } from '@/lib/server/api-response';
import { serverDatabase } from '@/lib/server/database';
import { listAudit } from '@/lib/server/list-audit';
import { authorize } from '@/lib/server/auth/request-auth';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return respond(async () => {
    await authorize(request, 'viewer');
    return listAudit(serverDatabase(), ZAuditQuery.parse(queryOf(request)));
  });
}
