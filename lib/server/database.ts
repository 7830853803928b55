import 'server-only';
import { loadDashboardConfig } from './dashboard-config';
import { createDatabase, type Database } from '../db';

// One client per server process; dev-mode hot reloads reuse it instead of leaking pools.
const holder = globalThis as unknown as { wardenDatabase?: Database };

export function serverDatabase(): Database {
  holder.wardenDatabase ??= createDatabase(loadDashboardConfig().DATABASE_URL);
  return holder.wardenDatabase;
}
