import pg from 'pg';
import { loadTestConfig } from './test-config';
import { createDatabase, type Database } from '../lib/db';

/** The test database `npm test` reset and migrated; the caller disconnects it. */
export function testDatabase(): Database {
  return createDatabase(loadTestConfig().DATABASE_URL);
}

/**
 * Ends the Postgres session `pid` from a connection of its own, as a killed process or a cut connection would
 * end it (its session advisory locks are released at once).
 */
export async function terminateBackend(databaseUrl: string, pid: number | string): Promise<void> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query('SELECT pg_terminate_backend($1::int)', [pid]);
  } finally {
    await admin.end();
  }
}
