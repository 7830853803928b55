// GET /api/attention - how many partitions are quarantined and how many alerts are firing: the top bar's counts.
import { respond } from '@/lib/server/api-response';
import { authorize } from '@/lib/server/auth/request-auth';
import { countAttention } from '@/lib/server/count-attention';
import { serverDatabase } from '@/lib/server/database';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return respond(async () => {
    await authorize(request, 'viewer');
    return countAttention(serverDatabase());
  });
}
