// POST /api/alerts/silences - silence a group and/or condition of one cluster (body `cluster`, default: default)
// for a duration, with a reason (operators).
import { loadDashboardConfig } from '@/lib/server/dashboard-config';
import { ZSilenceRequest } from '@/lib/schemas/alerts';
import { createSilence } from '@/lib/server/alert-operations';
import { readJsonBody, respond } from '@/lib/server/api-response';
import { serverDatabase } from '@/lib/server/database';
import { authorize } from '@/lib/server/auth/request-auth';

export const dynamic = 'force-dynamic';

export async function POST(request: Request) {
  return respond(
    async () => {
      const operator = await authorize(request, 'operator');
      const body = ZSilenceRequest.parse(await readJsonBody(request));
      return createSilence(serverDatabase(), body, operator.name, loadDashboardConfig().clusters);
    },
    { status: 201 },
  );
}
