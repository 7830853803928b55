import 'server-only';
import { loadConfig } from '../config';
import { createDatabase, type Database } from '../db';

// One client per server process; dev-mode hot reloads reuse it instead of leaking pools.
const holder = globalThis as unknown as { wardenDatabase?: Database };

export function serverDatabase(): Database {
  holder.wardenDatabase ??= createDatabase(loadConfig().DATABASE_URL);
  return holder.wardenDatabase;
}
