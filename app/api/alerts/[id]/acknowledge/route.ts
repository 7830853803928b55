// POST /api/alerts/{id}/acknowledge - an operator takes a firing alert: no more reminders.
import { ZAcknowledgeRequest, ZAlertRouteParams } from '@/lib/schemas/alerts';
import { acknowledgeAlert } from '@/lib/server/alert-operations';
import { readJsonBody, respond, routeParams } from '@/lib/server/api-response';
import { serverDatabase } from '@/lib/server/database';
import { authorize } from '@/lib/server/auth/request-auth';

export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    const operator = await authorize(request, 'operator');
    const { id } = await routeParams(ZAlertRouteParams, params);
    const body = ZAcknowledgeRequest.parse(await readJsonBody(request));
    return acknowledgeAlert(serverDatabase(), id, operator.name, body.comment, new Date());
  });
}
