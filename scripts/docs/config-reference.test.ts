import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { configPart, defineProgramConfig, setting } from '../../lib/config/program-config';
import { booleanFlag, optionalSecret } from '../../lib/config/base';
import { configReferenceText, inputDefault, main, REFERENCE_FILE } from './config-reference';

// docs/operating/configuration.md is generated from the programs' schemas: the committed file must be what the
// script writes now, and the script's --check must say so.

const dir = mkdtempSync(path.join(tmpdir(), 'warden-config-reference-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('docs/operating/configuration.md', () => {
  it('is the generated reference (run npx tsx scripts/docs/config-reference.ts after changing a schema)', async () => {
    expect(readFileSync(REFERENCE_FILE, 'utf8')).toBe(configReferenceText());
    expect(await main(['--check'])).toBe(0);
  });

  it('names every variable of every program', () => {
    const text = configReferenceText();
    const variables = [...text.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((match) => match[1]);
    expect(variables).toContain('DATABASE_URL');
    expect(variables).toContain('DEMO_SCENARIO');
    expect(variables).toContain('WARDEN_FUZZ_SEED');
    expect(new Set(variables).size).toBe(variables.length);
  });
});

describe('the config-reference script', () => {
  it('--check fails on a stale or missing file, and writing makes it current', async () => {
    const file = path.join(dir, 'configuration.md');
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const logs = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      expect(await main(['--check'], file)).toBe(1);
      writeFileSync(file, configReferenceText().replace('`9464`', '`9465`'));
      expect(await main(['--check'], file)).toBe(1);
      expect(errors).toHaveBeenCalledWith(
        expect.stringContaining('is stale; run npx tsx scripts/docs/config-reference.ts'),
      );
      expect(await main([], file)).toBe(0);
      expect(await main(['--check'], file)).toBe(0);
    } finally {
      errors.mockRestore();
      logs.mockRestore();
    }
  });

  it("reads each variable's default from its schema, through transforms and preprocessing", () => {
    expect(inputDefault(z.coerce.number().default(5))).toBe(5);
    expect(inputDefault(booleanFlag(true))).toBe('true');
    expect(inputDefault(z.preprocess((v) => v, z.string().default('x')))).toBe('x');
    expect(inputDefault(optionalSecret())).toBeUndefined();
    expect(inputDefault(z.string().optional())).toBeUndefined();
  });

  it('writes a table per part under the program that owns it, shared parts once, with defaults and unset meanings', () => {
    const shared = configPart({
      id: 'shared-part',
      title: 'Shared',
      about: 'Read by both.',
      shape: {
        SHARED_URL: setting(z.string().optional(), {
          description: 'where | it goes',
          example: 'x',
          unset: 'nowhere',
        }),
      },
    });
    const own = configPart({
      id: 'own-part',
      title: 'Own',
      about: 'Read by one.',
      shape: {
        OWN_PORT: setting(z.coerce.number().default(8080), { description: 'its port', example: '8080' }),
        OWN_MODE: setting(z.string().optional(), { description: 'its mode', example: 'a', defaultText: 'derived' }),
      },
    });
    const first = defineProgramConfig({
      id: 'first',
      title: 'The first',
      command: 'npm run first',
      module: 'first.ts',
      about: 'First.',
      reads: [shared],
      own: [own],
    });
    const second = defineProgramConfig({
      id: 'second',
      title: 'The second',
      command: 'npm run second',
      module: 'second.ts',
      about: 'Second.',
      reads: [shared, own],
      own: [],
    });
    const text = configReferenceText([first, second]);
    expect(text).toContain('| `OWN_PORT` | `8080` | its port |');
    expect(text).toContain('| `OWN_MODE` | derived | its mode |');
    expect(text).toContain('| `SHARED_URL` | unset: nowhere | where \\| it goes |');
    expect(text.match(/\| `SHARED_URL` \|/g)).toHaveLength(1);
    expect(text).toContain("It reads [the first's settings](#first).");
    expect(text).toContain('Also read by [the second](#second).');
    expect(text.indexOf('### Own')).toBeLessThan(text.indexOf('## The second'));
    expect(text.indexOf('### Shared')).toBeGreaterThan(text.indexOf('## Settings several programs share'));
    const clash = defineProgramConfig({ ...second, id: 'own-part', reads: [], own: [] });
    expect(() => configReferenceText([first, clash])).toThrow('anchors used twice: own-part');
  });
});
