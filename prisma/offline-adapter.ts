import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';

// Prisma 6.19 applies migrations offline only through its JS schema engine over a driver adapter.
// A known upstream bug (docs/decisions/0042-prisma-offline-migrations.md names it): the pg adapter cannot decode the Postgres `name` (19),
// `char` (18) and `name[]` (1003) columns that the migration engine reads from the catalogs. This pool
// reports those columns as text / text[] before the adapter sees them. Remove once Prisma can migrate
// offline without an adapter (or fixes the bug).
const TEXT_OID = 25;
const TEXT_ARRAY_OID = 1009;
const OID_REMAP = new Map<number, number>([
  [19, TEXT_OID],
  [18, TEXT_OID],
  [1003, TEXT_ARRAY_OID],
]);

class CatalogFriendlyPool extends pg.Pool {
  // Overloads of pg.Pool#query are many; the remap is type-agnostic, so pass everything through.
  override query(...args: unknown[]): never {
    const result = (super.query as (...a: unknown[]) => unknown)(...args);
    if (result instanceof Promise) {
      return result.then((res: pg.QueryResult) => {
        for (const field of res?.fields ?? []) {
          field.dataTypeID = OID_REMAP.get(field.dataTypeID) ?? field.dataTypeID;
        }
        return res;
      }) as never;
    }
    return result as never;
  }
}

function poolFor(connectionString: string): pg.Pool {
  // A short idle timeout lets each CLI call exit promptly instead of holding idle clients for ~10 s.
  return new CatalogFriendlyPool({ connectionString, idleTimeoutMillis: 200, max: 4 });
}

function withDatabase(connectionString: string, database: string): string {
  const url = new URL(connectionString);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * The migration adapter. Its shadow database is a throwaway database created next to the main one and
 * dropped on dispose; the adapter's own shadow connect would run the shadow SQL on the main database.
 */
export function migrationAdapter(connectionString: string) {
  const factory = new PrismaPg(poolFor(connectionString));
  return Object.assign(factory, {
    async connectToShadowDb() {
      const shadowName = `warden_shadow_${process.pid}_${Date.now()}`;
      const admin = new pg.Client({ connectionString });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE "${shadowName}"`);
      } finally {
        await admin.end();
      }
      const shadowPool = poolFor(withDatabase(connectionString, shadowName));
      const adapter = await new PrismaPg(shadowPool).connect();
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        await dispose().catch(() => undefined);
        await shadowPool.end().catch(() => undefined);
        const cleanup = new pg.Client({ connectionString });
        await cleanup.connect();
        try {
          await cleanup.query(`DROP DATABASE IF EXISTS "${shadowName}" WITH (FORCE)`);
        } finally {
          await cleanup.end();
        }
      };
      return adapter;
    },
  });
}
