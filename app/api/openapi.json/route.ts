// GET /api/openapi.json - the API's OpenAPI 3.1 document, built from lib/openapi/api-routes.ts (signed-in callers).
import { buildOpenApiDocument } from '@/lib/openapi/openapi-document';
import { respond } from '@/lib/server/api-response';
import { authorize } from '@/lib/server/auth/request-auth';

export const dynamic = 'force-dynamic';

const document = buildOpenApiDocument();

export async function GET(request: Request) {
  return respond(async () => {
    await authorize(request, 'viewer');
    return document;
  });
}
