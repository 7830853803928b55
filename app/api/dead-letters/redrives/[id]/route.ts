// POST /api/dead-letters/redrives/{id} - pause, resume or cancel a redrive job, with a reason.
import { ZRedriveControl, ZRedriveIdParams } from '@/lib/schemas/dead-letters';
import { readJsonBody, respond, routeParams } from '@/lib/server/api-response';
import { authorize } from '@/lib/server/auth/request-auth';
import { serverDatabase } from '@/lib/server/database';
import { controlRedrive } from '@/lib/server/dead-letters/control-redrive';

export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    const operator = await authorize(request, 'operator');
    const { id } = await routeParams(ZRedriveIdParams, params);
    const body = ZRedriveControl.parse(await readJsonBody(request));
    return controlRedrive(serverDatabase(), BigInt(id), body, operator.name);
  });
}
