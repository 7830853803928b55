import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ZCommandAck, ZInstanceState, ZOperatorCommand } from '@warden/consumer';
import { arbitraryOf, type JsonSchema } from '../test-support/json-schema-arbitrary';
import { controlProtocolSchemaText, SCHEMA_FILE } from './control-protocol-schema';

// docs/control-protocol.schema.json is generated from the zod definitions: the committed file must be what the
// script writes now, and a message another implementation builds from the JSON Schema must pass Warden's zod
// readers.

const text = await controlProtocolSchemaText();
const document = JSON.parse(text) as { $defs: Record<string, JsonSchema> };

describe('docs/control-protocol.schema.json', () => {
  it('is the generated document (run tsx scripts/control-protocol-schema.ts after changing protocol.ts)', () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(text);
  });

  it.each<[string, z.ZodType]>([
    ['InstanceState', ZInstanceState],
    ['OperatorCommand', ZOperatorCommand],
    ['CommandAck', ZCommandAck],
  ])('describes %s as the zod reader accepts it', (name, schema) => {
    const definition = document.$defs[name]!;
    expect(definition.type).toBe('object');
    fc.assert(
      fc.property(arbitraryOf(definition), (message) => {
        const parsed = schema.safeParse(message);
        if (!parsed.success) throw new Error(`${JSON.stringify(message)}: ${parsed.error.message}`);
      }),
      { seed: 20261207, numRuns: 200 },
    );
  });

  it('refuses through the zod reader what the JSON Schema rules out', () => {
    const command = fc.sample(arbitraryOf(document.$defs['OperatorCommand']!), { seed: 1, numRuns: 1 })[0] as object;
    expect(ZOperatorCommand.safeParse(command).success).toBe(true);
    expect(ZOperatorCommand.safeParse({ ...command, partition: -1 }).success).toBe(false);
    expect(ZOperatorCommand.safeParse({ ...command, quarantineOffset: '1e3' }).success).toBe(false);
    expect(ZOperatorCommand.safeParse({ ...command, v: 2 }).success).toBe(false);
  });
});
