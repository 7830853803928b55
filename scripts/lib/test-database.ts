import pg from 'pg';
import { migrateDatabase } from './database';

/**
 * A tests' own database next to the configured one (`warden` → `warden_test`, or `warden_e2e_test` for the
 * suite `e2e`), never the demo's.
 */
export function testDatabaseUrl(databaseUrl: string, suite?: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `${url.pathname}${suite ? `_${suite}` : ''}_test`;
  return url.toString();
}

/** Drops and recreates the test database, then applies every migration: each run starts empty. */
export async function resetTestDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!name.endsWith('_test')) throw new Error(`refusing to reset "${name}": not a test database`);
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name.replaceAll('"', '""')}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
  await migrateDatabase(databaseUrl);
}
