import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

// The sampler's bulk writes go through COPY ... FROM STDIN (text format) on a node-postgres connection: one
// round's rows are one stream of tab-separated lines, with no statement parameters to bind and no query
// plan per batch. This file encodes values as that format reads them and streams the lines.

const NEEDS_ESCAPE = /[\\\t\n\r]/;
const ESCAPABLE = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** NULL in COPY's text format. */
export const COPY_NULL = '\\N';

/**
 * A text value as COPY's text format reads it back unchanged: backslash, tab, newline and carriage return
 * escaped (every other character, quotes and non-ASCII included, is taken literally). A NUL character is
 * refused by Postgres for text columns and fails the whole COPY, as it would in any statement.
 */
export function copyText(value: string): string {
  return NEEDS_ESCAPE.test(value) ? value.replace(ESCAPABLE, (c) => ESCAPES[c]!) : value;
}

export function copyNullableText(value: string | null): string {
  return value === null ? COPY_NULL : copyText(value);
}

/** A bigint, a finite number or null (numbers print as the shortest text that reads back the same double). */
export function copyNumber(value: bigint | number | null): string {
  return value === null ? COPY_NULL : String(value);
}

const LINES_PER_CHUNK = 2_000;

/**
 * Runs `COPY <target> FROM STDIN` on `client` with one line per item (`line` gives the tab-separated fields),
 * written in chunks of a few thousand lines. Rejects with Postgres's error (bad value, constraint, lost
 * connection); COPY is one statement, so a failed one stores none of its lines. Returns the lines stored.
 */
export async function copyLines<T>(
  client: pg.PoolClient,
  target: string,
  items: readonly T[],
  line: (item: T) => string,
): Promise<number> {
  function* chunks(): Generator<string> {
    for (let start = 0; start < items.length; start += LINES_PER_CHUNK) {
      let chunk = '';
      const end = Math.min(items.length, start + LINES_PER_CHUNK);
      for (let i = start; i < end; i++) chunk += line(items[i]!) + '\n';
      yield chunk;
    }
  }
  const stream = client.query(copyFrom(`COPY ${target} FROM STDIN`));
  await pipeline(Readable.from(chunks(), { objectMode: false }), stream);
  return stream.rowCount;
}

/**
 * Runs `work` in a transaction on one connection of `pool`: committed when it resolves, rolled back when it
 * throws (the error is rethrown; a connection whose rollback fails too is discarded, not reused).
 */
export async function inTransaction<R>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<R>): Promise<R> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}
