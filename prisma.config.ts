import path from 'node:path';
import { defineConfig } from 'prisma/config';
import { loadDatabaseToolsConfig, provideDatabaseUrlToPrismaCli } from './lib/config/database-config';
import { migrationAdapter } from './prisma/offline-adapter';

// Prisma 6.19 with the JS schema engine over a driver adapter: migrations apply with no download.
// See prisma/offline-adapter.ts for the workaround this needs and when to drop it.
provideDatabaseUrlToPrismaCli();

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: path.join('prisma', 'schema.prisma'),
  migrations: { path: path.join('prisma', 'migrations') },
  async adapter() {
    return migrationAdapter(loadDatabaseToolsConfig().DATABASE_URL);
  },
});
