// GET /api/commands/{id} - an operator action's state: pending, applied or failed, with a message.
import { z } from 'zod';
import { ZCommandIdParam } from '@/lib/schemas/operator-actions';
import { respond, routeParams } from '@/lib/server/api-response';
import { serverDatabase } from '@/lib/server/database';
import { getCommand } from '@/lib/server/get-command';
import { authorize } from '@/lib/server/auth/request-auth';

export const dynamic = 'force-dynamic';

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    await authorize(request, 'viewer');
    const { id } = await routeParams(z.object({ id: ZCommandIdParam }), params);
    return getCommand(serverDatabase(), id);
  });
}
