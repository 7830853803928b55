import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { envSchema } from './config';

// The README's configuration table is the operator's reference: a variable the schema reads but the README
// does not name is a setting nobody can find.
describe('README configuration table', () => {
  it('names every variable lib/config.ts reads', () => {
    const readme = readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
    const table = readme.slice(
      readme.indexOf('## Configuration'),
      readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1),
    );
    const undocumented = Object.keys(envSchema.shape).filter(
      (name) => name !== 'NODE_ENV' && !table.includes(`\`${name}\``),
    );
    expect(undocumented).toEqual([]);
  });
});
