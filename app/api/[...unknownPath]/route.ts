// Any /api/... path no other route handles, with any method: 404 with the API's error body, so a client
// sees the same JSON refusal as from every route (not the framework's HTML 404 page). Not an operation:
// the OpenAPI coverage check skips this one file (lib/openapi/route-files.ts, UNKNOWN_API_PATH_ROUTE).
import { unknownApiPath } from '@/lib/server/unknown-api-path';

export const dynamic = 'force-dynamic';

export const GET = unknownApiPath;
export const HEAD = unknownApiPath;
export const POST = unknownApiPath;
export const PUT = unknownApiPath;
export const PATCH = unknownApiPath;
export const DELETE = unknownApiPath;
export const OPTIONS = unknownApiPath;
