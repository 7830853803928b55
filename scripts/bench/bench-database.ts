import pg from 'pg';
import { migrateDatabase } from '../lib/database';

// The bench's own database next to the configured one (`warden` → `warden_bench`), so documents the
// full-pipeline workload stores never mix with the demo's or the tests'.

export function benchDatabaseUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `${url.pathname}_bench`;
  return url.toString();
}

/** Creates and migrates the bench database if needed, then empties the pipeline's documents table. */
export async function prepareBenchDatabase(databaseUrl: string): Promise<void> {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  if (!name.endsWith('_bench')) throw new Error(`refusing to empty "${name}": not a bench database`);
  await migrateDatabase(databaseUrl);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('TRUNCATE stored_document');
  } finally {
    await client.end();
  }
}
