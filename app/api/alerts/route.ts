// GET /api/alerts - open alerts, history, active silences, each alert's notifications and deliveries.
import { respond } from '@/lib/server/api-response';
import { serverDatabase } from '@/lib/server/database';
import { listAlerts } from '@/lib/server/list-alerts';
import { authorize } from '@/lib/server/auth/request-auth';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return respond(async () => {
    await authorize(request, 'viewer');
    return listAlerts(serverDatabase());
  });
}
