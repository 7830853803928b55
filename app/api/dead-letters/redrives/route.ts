// GET /api/dead-letters/redrives - the newest redrive jobs with their progress; POST - request one (202 + the job).
import { ZRedriveRequest } from '@/lib/schemas/dead-letters';
import { readJsonBody, respond } from '@/lib/server/api-response';
import { authorize } from '@/lib/server/auth/request-auth';
import { serverDatabase } from '@/lib/server/database';
import { listRedrives } from '@/lib/server/dead-letters/list-redrives';
import { requestRedrive } from '@/lib/server/dead-letters/request-redrive';
import { serverDeadLetterTopic, withRecordSource } from '@/lib/server/dead-letters/server-dead-letters';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return respond(async () => {
    await authorize(request, 'viewer');
    return listRedrives(serverDatabase(), { cluster: serverDeadLetterTopic().cluster });
  });
}

export async function POST(request: Request) {
  return respond(
    async () => {
      const operator = await authorize(request, 'operator');
      const body = ZRedriveRequest.parse(await readJsonBody(request));
      return withRecordSource((source) =>
        requestRedrive(serverDatabase(), source, serverDeadLetterTopic(), body, operator.name),
      );
    },
    { status: 202 },
  );
}
