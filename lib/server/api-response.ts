import { z } from 'zod';
import { ApiError, describeZodError, errorBody } from './api-error';

// The one place that turns a route handler's outcome into HTTP: the handler parses its input with a shared
// zod schema and calls one function in lib/server; a ZodError becomes 400 naming the field, an ApiError its
// own status, anything else 500 (logged, with no internals in the body).

const NO_STORE = { 'cache-control': 'no-store' };

export async function respond(
  run: () => Promise<unknown>,
  options: { status?: number; headers?: Record<string, string> } = {},
): Promise<Response> {
  try {
    const body = await run();
    return Response.json(body, { status: options.status ?? 200, headers: { ...NO_STORE, ...options.headers } });
  } catch (error) {
    return errorResponse(error);
  }
}

export function errorResponse(error: unknown): Response {
  if (error instanceof z.ZodError) return Response.json(describeZodError(error), { status: 400, headers: NO_STORE });
  if (error instanceof ApiError) {
    return Response.json(errorBody(error.message, error.field), {
      status: error.status,
      headers: { ...NO_STORE, ...error.headers },
    });
  }
  console.error('API request failed', error);
  return Response.json(errorBody('internal error; see the server log'), { status: 500, headers: NO_STORE });
}

/**
 * Largest request body any endpoint accepts (the biggest legitimate one, an action with a long reason, is
 * a few KiB). Larger bodies are refused with 413 before they are parsed: at once when Content-Length says so,
 * otherwise as soon as the bytes read pass the limit, so an endless chunked body is not buffered either.
 */
export const MAX_BODY_BYTES = 32 * 1024;

/** The request's JSON body; 413 when it is larger than MAX_BODY_BYTES, 400 when it is not JSON. */
export async function readJsonBody(request: Request): Promise<unknown> {
  const text = await readBodyText(request, MAX_BODY_BYTES);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(400, 'body: must be a JSON object', 'body');
  }
}

async function readBodyText(request: Request, limit: number): Promise<string> {
  const tooLarge = () => new ApiError(413, `body: must be at most ${limit} bytes`, 'body');
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) throw tooLarge();
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Query parameters as a plain object (a repeated parameter keeps its last value). */
export function queryOf(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams.entries());
}

/**
 * Route parameters parsed with `schema`, each value percent-decoded once when it still holds an escape (a
 * group id may contain any character, so the UI always encodes it).
 */
export async function routeParams<T extends z.ZodType>(
  schema: T,
  params: Promise<Record<string, string>>,
): Promise<z.output<T>> {
  const raw = await params;
  return schema.parse(Object.fromEntries(Object.entries(raw).map(([name, value]) => [name, decodeSegment(value)])));
}

function decodeSegment(value: string): string {
  if (!/%[0-9a-fA-F]{2}/.test(value)) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
