import { describe, expect, it } from 'vitest';
import { loadTestConfig } from '../test-support/test-config';
import { runPrisma } from '../scripts/lib/database';

// Fails when prisma/schema.prisma and prisma/migrations disagree: a schema change needs a migration.
describe('prisma schema and migrations', () => {
  it('are in sync', async () => {
    const { code, output } = await runPrisma(
      [
        'migrate',
        'diff',
        '--from-migrations',
        'prisma/migrations',
        '--to-schema-datamodel',
        'prisma/schema.prisma',
        '--exit-code',
      ],
      loadTestConfig().DATABASE_URL,
    );
    expect(output).not.toMatch(/error/i);
    expect(code, output).toBe(0);
  });
});
