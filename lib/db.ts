import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/prisma/client';

export type Database = PrismaClient;

const pools = new WeakMap<Database, pg.Pool>();

/** A Prisma client over node-postgres; the caller owns it and must `$disconnect()` it (which ends its pool too). */
export function createDatabase(databaseUrl: string, poolSize = 10): Database {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  pools.set(db, pool);
  return db;
}

/**
 * The node-postgres pool under `db` (the same connections, the same size), for what Prisma cannot do cheaply:
 * COPY and other bulk statements. Throws for a client createDatabase did not make.
 */
export function nodePostgresPool(db: Database): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error('this Prisma client was not made by createDatabase: it has no node-postgres pool');
  return pool;
}
