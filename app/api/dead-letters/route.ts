// GET /api/dead-letters?sourceTopic=&sourcePartition=&errorClass=&key=&from=&to=&cursor=&limit= - one page of dead letters, newest first.
import { ZDeadLettersQuery } from '@/lib/schemas/dead-letters';
import { ApiError } from '@/lib/server/api-error';
import { queryOf, respond } from '@/lib/server/api-response';
import { authorize } from '@/lib/server/auth/request-auth';
import { serverDatabase } from '@/lib/server/database';
import { listDeadLetters } from '@/lib/server/dead-letters/list-dead-letters';
import {
  serverDeadLetterTopic,
  serverPayloadAccess,
  withRecordSource,
} from '@/lib/server/dead-letters/server-dead-letters';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return respond(async () => {
    const caller = await authorize(request, 'viewer');
    const query = ZDeadLettersQuery.parse(queryOf(request));
    const access = serverPayloadAccess(caller.role);
    // Filtering by key would tell a caller who may not see keys which keys exist.
    if (query.filter.key !== undefined && !access.showPayloads) {
      throw new ApiError(
        403,
        'key: record payloads are hidden from you (WARDEN_PAYLOAD_ACCESS), so is filtering by key',
        'key',
      );
    }
    return withRecordSource((source) =>
      listDeadLetters(serverDatabase(), source, serverDeadLetterTopic(), { ...query, ...access }),
    );
  });
}
