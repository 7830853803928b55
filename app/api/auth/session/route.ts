// GET /api/auth/session - who is asking (session cookie or bearer token) and their role; 401 when nobody.
import { respond } from '@/lib/server/api-response';
import { authorize } from '@/lib/server/auth/request-auth';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return respond(async () => {
    const { name, role, via } = await authorize(request, 'viewer');
    return { name, role, via };
  });
}
