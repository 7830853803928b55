import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client';

export type Database = PrismaClient;

/** A Prisma client over node-postgres; the caller owns it and must `$disconnect()` it. */
export function createDatabase(databaseUrl: string, poolSize = 10): Database {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl, max: poolSize }) });
}
