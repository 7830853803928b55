import type { z } from 'zod';
import { BROWSER_SCHEMA_LOADERS } from './browser-schemas';
import { DEFAULT_CLUSTER } from '@/lib/schemas/values';

type Loaders = typeof BROWSER_SCHEMA_LOADERS;
/** The name of a schema the browser parses an answer with (browser-schemas.ts). */
export type SchemaName = keyof Loaders;
/** The schema named `N`. */
type BrowserSchema<N extends SchemaName> = Awaited<ReturnType<Loaders[N]>>;
/** What the schema named `N` gives. */
export type Parsed<N extends SchemaName> = z.output<BrowserSchema<N>>;

/**
 * The schema named `name`, with zod: loaded by the first answer that needs it (never while a page starts) and
 * shared by every later one.
 */
export function loadBrowserSchema<N extends SchemaName>(name: N): Promise<BrowserSchema<N>> {
  return BROWSER_SCHEMA_LOADERS[name]() as Promise<BrowserSchema<N>>;
}

/** A refusal or failure from the API, with the server's own sentence and the offending field, if any. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

/**
 * Fetches `url` and parses the body with the shared schema named `schema`: a response that does not match is
 * an error, not data. Non-2xx answers become ApiRequestError carrying the API's message.
 */
export async function fetchJson<N extends SchemaName>(
  url: string,
  schema: N,
  init: RequestInit = {},
): Promise<Parsed<N>> {
  let response: Response;
  try {
    response = await fetch(url, {
      cache: 'no-store',
      ...init,
      headers: { accept: 'application/json', ...init.headers },
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiRequestError(0, 'the dashboard server cannot be reached');
  }
  const body: unknown = await response.json().catch(() => null);
  // The session ended (expired, signed out elsewhere, or the user was removed): back to the sign-in page,
  // returning here afterwards. The sign-in request itself answers 401 for a wrong password: no redirect.
  if (response.status === 401 && typeof window !== 'undefined' && url !== '/api/auth/sign-in') {
    const here = `${window.location.pathname}${window.location.search}`;
    window.location.assign(`/sign-in?next=${encodeURIComponent(here)}`);
  }
  if (!response.ok) {
    const parsed = (await loadBrowserSchema('apiError')).safeParse(body);
    throw new ApiRequestError(
      response.status,
      parsed.success ? parsed.data.error : `${init.method ?? 'GET'} ${url} answered ${response.status}`,
      parsed.success ? (parsed.data.field ?? undefined) : undefined,
    );
  }
  // The named schema's output is Parsed<N>; TypeScript cannot narrow the table's union by a generic key.
  const parsed = ((await loadBrowserSchema(schema)) as z.ZodType).safeParse(body);
  if (!parsed.success)
    throw new ApiRequestError(response.status, `${url} answered data this dashboard does not understand`);
  return parsed.data as Parsed<N>;
}

/** `?cluster=` for a cluster other than the default one, so every default-cluster URL stays as it was. */
function clusterQuery(cluster: string, params: Record<string, string> = {}): string {
  const query = new URLSearchParams(params);
  if (cluster !== DEFAULT_CLUSTER) query.set('cluster', cluster);
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}

/** The group page of `groupId` (a path segment; a group id may contain any character) in `cluster`. */
export function groupPath(groupId: string, cluster: string = DEFAULT_CLUSTER): string {
  return `/groups/${encodeURIComponent(groupId)}${clusterQuery(cluster)}`;
}

/** The API URL of `groupId` in `cluster`, with `suffix` (e.g. /lag) and query parameters. */
export function groupApiPath(
  groupId: string,
  cluster: string,
  suffix = '',
  params: Record<string, string> = {},
): string {
  return `/api/groups/${encodeURIComponent(groupId)}${suffix}${clusterQuery(cluster, params)}`;
}
