// npm run db:migrate - create the configured database if missing and apply migrations (no internet needed).
import { loadDatabaseToolsConfig } from '../lib/config/database-config';
import { migrateDatabase } from './lib/database';

const started = Date.now();
migrateDatabase(loadDatabaseToolsConfig().DATABASE_URL)
  .then(() => console.log(`database: migrations applied in ${((Date.now() - started) / 1000).toFixed(1)} s`))
  .catch((error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
