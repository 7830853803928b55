import { databasePart, defineProgramConfig } from './base';
import { provideToEnvironment } from './program-config';

// The database tools' configuration: `npm run db:migrate`, the Prisma CLI (prisma.config.ts) and the
// lighthouse seed (scripts/lighthouse/seed-dashboard.ts) read Postgres's URL and nothing else.

export const databaseToolsConfig = defineProgramConfig({
  id: 'database-tools',
  title: 'The database tools',
  command: 'npm run db:migrate, npx prisma ...',
  module: 'lib/config/database-config.ts',
  about: 'Migrations and the Prisma CLI: they read the database URL only.',
  reads: [databasePart],
  own: [],
});

export type DatabaseToolsConfig = ReturnType<typeof databaseToolsConfig.parse>;

/** The database tools' configuration from process.env, parsed once. Throws ConfigError. */
export const loadDatabaseToolsConfig = (): DatabaseToolsConfig => databaseToolsConfig.load();

/**
 * The Prisma CLI resolves `env("DATABASE_URL")` in the schema even though the driver adapter connects, and
 * with the variable unset it falls back to downloading a native engine (impossible offline). Called from
 * prisma.config.ts so every CLI run (postinstall's generate included) sees the configured URL.
 */
export function provideDatabaseUrlToPrismaCli(): void {
  provideToEnvironment('DATABASE_URL', loadDatabaseToolsConfig().DATABASE_URL);
}
