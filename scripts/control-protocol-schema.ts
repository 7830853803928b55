// tsx scripts/control-protocol-schema.ts - writes docs/control-protocol.schema.json, the JSON Schema of the control protocol's
// messages, generated from the zod definitions every reader and writer uses (packages/consumer/src/control/
// protocol.ts) with zod's own z.toJSONSchema, for implementers in other languages.
//   tsx scripts/control-protocol-schema.ts           writes the file
//   tsx scripts/control-protocol-schema.ts --check   exits 1 when the file differs from what would be written
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import prettier from 'prettier';
import { z } from 'zod';
import { CONTROL_PROTOCOL_VERSION, ZCommandAck, ZInstanceState, ZOperatorCommand } from '@warden/consumer';
import { parseCommandLine, runCommandLine } from './lib/command-line';

export const SCHEMA_FILE = path.join(import.meta.dirname, '..', 'docs', 'control-protocol.schema.json');

const USAGE = `usage: tsx scripts/control-protocol-schema.ts [--check]
  (no option)  writes ${path.relative(process.cwd(), SCHEMA_FILE)}
  --check      exits 1 when the file is missing or differs from the generated one`;

/** One message type's schema, without its own dialect line (the document states it once). */
function definition(schema: z.ZodType): object {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'throw',
  });
  return rest;
}

/** The JSON Schema document, as the file holds it (formatted by Prettier, as the repository's lint checks). */
export async function controlProtocolSchemaText(): Promise<string> {
  const document = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: `Warden control protocol, version ${CONTROL_PROTOCOL_VERSION}`,
    description:
      'Messages of the control plane over Kafka (docs/control-protocol.md). Generated from packages/consumer/src/control/protocol.ts by scripts/control-protocol-schema.ts; do not edit. Each message is one UTF-8 JSON object in a record value. InstanceState goes to <prefix>.state; OperatorCommand and CommandAck go to <prefix>.commands (CommandTopicMessage: either, told apart by "type").',
    $defs: {
      InstanceState: definition(ZInstanceState),
      OperatorCommand: definition(ZOperatorCommand),
      CommandAck: definition(ZCommandAck),
      CommandTopicMessage: { oneOf: [{ $ref: '#/$defs/OperatorCommand' }, { $ref: '#/$defs/CommandAck' }] },
    },
  };
  const options = await prettier.resolveConfig(SCHEMA_FILE);
  return prettier.format(JSON.stringify(document), { ...options, filepath: SCHEMA_FILE });
}

async function main(argv: string[]): Promise<number | 'help'> {
  const { values } = parseCommandLine(argv, { check: { type: 'boolean', default: false } });
  if (values.help) return 'help';
  const text = await controlProtocolSchemaText();
  if (values.check) {
    let current: string | null = null;
    try {
      current = readFileSync(SCHEMA_FILE, 'utf8');
    } catch {
      // Missing: stale.
    }
    if (current === text) return 0;
    console.error(
      `control-protocol-schema: ${path.relative(process.cwd(), SCHEMA_FILE)} is stale; run tsx scripts/control-protocol-schema.ts`,
    );
    return 1;
  }
  writeFileSync(SCHEMA_FILE, text);
  console.log(`wrote ${path.relative(process.cwd(), SCHEMA_FILE)}`);
  return 0;
}

// Runs only as the entry point (tsx scripts/control-protocol-schema.ts), not when a test imports it.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runCommandLine('control-protocol-schema', USAGE, main);
}
