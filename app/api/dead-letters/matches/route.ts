// GET /api/dead-letters/matches?sourceTopic=&sourcePartition=&errorClass=&key=&from=&to= - how many dead letters a redrive of this filter would send.
import { ZDeadLetterFilterQuery } from '@/lib/schemas/dead-letters';
import { queryOf, respond } from '@/lib/server/api-response';
import { authorize } from '@/lib/server/auth/request-auth';
import { serverDatabase } from '@/lib/server/database';
import { matchDeadLetters } from '@/lib/server/dead-letters/request-redrive';
import { serverDeadLetterTopic, withRecordSource } from '@/lib/server/dead-letters/server-dead-letters';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return respond(async () => {
    await authorize(request, 'operator');
    const filter = ZDeadLetterFilterQuery.parse(queryOf(request));
    return withRecordSource((source) =>
      matchDeadLetters(serverDatabase(), source, serverDeadLetterTopic(), { kind: 'filter', filter }),
    );
  });
}
