// GET /api/dead-letters/counts - dead letters by error class and by source, over the newest records (bounded).
import { respond } from '@/lib/server/api-response';
import { authorize } from '@/lib/server/auth/request-auth';
import { countDeadLetterTopic } from '@/lib/server/dead-letters/list-dead-letters';
import { serverDeadLetterTopic, withRecordSource } from '@/lib/server/dead-letters/server-dead-letters';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return respond(async () => {
    await authorize(request, 'viewer');
    return withRecordSource((source) => countDeadLetterTopic(source, serverDeadLetterTopic().topic));
  });
}
