import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { z } from 'zod';
import { ApiError } from '@/lib/server/api-error';

/** What a prefetch left for the client: the data, the API's 404 (the page can say so at once), or nothing. */
export type PrefetchOutcome = 'stored' | 'not-found' | 'failed';

/**
 * Reads a page's data while the page renders on the server and hands it to the client's query under `key`, so
 * the first HTML holds it (the page's largest paint, and nothing below shifts when it arrives). The data goes
 * through the wire form and the API's schema: exactly what the client's fetch would give. When the read fails
 * (the database down, a group never sampled), the page renders without it and the client's query asks the
 * API, which answers with the refusal the page shows. A 404 is reported, so a page can render the refusal in
 * its first HTML instead of a spinner. With `withinMs`, a read that takes longer is left to the client as well.
 */
export async function prefetchQuery<T>(
  client: QueryClient,
  key: QueryKey,
  schema: z.ZodType<T>,
  read: () => Promise<unknown>,
  options: { withinMs?: number } = {},
): Promise<PrefetchOutcome> {
  try {
    const data = options.withinMs === undefined ? await read() : await withinDeadline(read(), options.withinMs);
    client.setQueryData(key, schema.parse(JSON.parse(JSON.stringify(data))));
    return 'stored';
  } catch (error) {
    // Left to the client's query (see above).
    return error instanceof ApiError && error.status === 404 ? 'not-found' : 'failed';
  }
}

/**
 * `read`, or a rejection once `ms` have passed: a read from a slow or unreachable broker must not hold the
 * whole page back (kafkajs retries a refused connection for seconds). The read goes on and its outcome is
 * dropped; the client's query asks again.
 */
function withinDeadline<T>(read: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  read.catch(() => undefined);
  return Promise.race([read, deadline]).finally(() => clearTimeout(timer));
}
