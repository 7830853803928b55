import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { envSchema } from './config';

// The configuration reference (docs/operating/configuration.md) is the operator's reference: a variable the
// schema reads but the reference does not name is a setting nobody can find.
describe('the configuration reference', () => {
  it('names every variable lib/config.ts reads', () => {
    const reference = readFileSync(path.join(__dirname, '..', 'docs', 'operating', 'configuration.md'), 'utf8');
    const undocumented = Object.keys(envSchema.shape).filter(
      (name) => name !== 'NODE_ENV' && !reference.includes(`\`${name}\``),
    );
    expect(undocumented).toEqual([]);
  });
});
