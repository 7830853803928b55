import { errorResponse } from './api-response';
import { notFound } from './api-error';

/** The answer to an /api/... path that names no route: 404, the error body naming the method and path. */
export function unknownApiPath(request: Request): Response {
  const { pathname } = new URL(request.url);
  return errorResponse(notFound(`no API route ${request.method} ${pathname}; GET /api/openapi.json lists them`));
}
