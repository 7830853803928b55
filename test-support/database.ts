import { loadConfig } from '../lib/config';
import { createDatabase, type Database } from '../lib/db';

/** The test database `npm test` reset and migrated; the caller disconnects it. */
export function testDatabase(): Database {
  return createDatabase(loadConfig().DATABASE_URL);
}
