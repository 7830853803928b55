// tsx scripts/docs/config-reference.ts - writes docs/operating/configuration.md, the configuration reference,
// from the programs' zod schemas: per program the parts it reads, per part each variable with its default (from
// the schema) and its meaning (the documentation every variable carries, lib/config/program-config.ts).
//   tsx scripts/docs/config-reference.ts           writes the file
//   tsx scripts/docs/config-reference.ts --check   exits 1 when the file differs from what would be written
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { z } from 'zod';
import { settingDoc, type ConfigPart, type ProgramConfig } from '../../lib/config/program-config';
import { parseCommandLine, runCommandLine } from '../lib/command-line';
import { PROGRAM_CONFIGS } from './config-programs';

export const REFERENCE_FILE = path.join(import.meta.dirname, '..', '..', 'docs', 'operating', 'configuration.md');

const USAGE = `usage: tsx scripts/docs/config-reference.ts [--check]
  (no option)  writes docs/operating/configuration.md
  --check      exits 1 when the file is missing or differs from the generated one`;

/**
 * The value a variable takes when unset, as it would be written in the environment; undefined when it has
 * none. Read from the schema: a default, through the pipes a transform or a preprocess adds.
 */
export function inputDefault(schema: z.ZodType): unknown {
  const def = schema._zod.def as { type: string; defaultValue?: unknown; in?: z.ZodType; out?: z.ZodType };
  if (def.type === 'default') return def.defaultValue;
  if (def.type === 'pipe' && def.in && def.out) {
    // A preprocess is a pipe from a transform: the schema that holds the default comes after it.
    return def.in._zod.def.type === 'transform' ? inputDefault(def.out) : inputDefault(def.in);
  }
  return undefined;
}

/** A table cell: pipes escaped, line breaks folded. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

function defaultCell(schema: z.ZodType): string {
  const doc = settingDoc(schema);
  if (doc.defaultText !== undefined) return doc.defaultText;
  const value = inputDefault(schema);
  if (value !== undefined) return `\`${String(value)}\``;
  return doc.unset === undefined ? 'unset' : `unset: ${doc.unset}`;
}

function partTable(part: ConfigPart): string[] {
  const rows = Object.entries(part.shape).map(([name, schema]) => {
    const doc = settingDoc(schema);
    return `| \`${name}\` | ${cell(defaultCell(schema))} | ${cell(doc.description)} |`;
  });
  return ['| variable | default | meaning |', '| --- | --- | --- |', ...rows];
}

const anchor = (id: string) => `<a id="${id}"></a>`;
/** "The worker" → "the worker's", "npm test" → "npm test's". */
const possessive = (title: string) => `${title.replace(/^The /, 'the ')}'s`;
const partLink = (part: ConfigPart) => `[${part.title}](#${part.id})`;
/** A program named inside a sentence: "The worker" reads "the worker". */
const programLink = (program: ProgramConfig<unknown>) => `[${program.title.replace(/^The /, 'the ')}](#${program.id})`;
const programHeading = (program: ProgramConfig<unknown>) => `[${program.title}](#${program.id})`;
const commands = (program: ProgramConfig<unknown>) =>
  program.command
    .split(', ')
    .map((command) => `\`${command}\``)
    .join(', ');

/** The reference's text, as the file holds it. */
export function configReferenceText(programs: readonly ProgramConfig<unknown>[] = PROGRAM_CONFIGS): string {
  const owner = new Map<ConfigPart, ProgramConfig<unknown>>();
  for (const program of programs) {
    for (const part of program.own) {
      const other = owner.get(part);
      if (other) throw new Error(`${part.id} is the own part of ${other.id} and ${program.id}`);
      owner.set(part, program);
    }
  }
  const shared = [...new Set(programs.flatMap((program) => program.parts))].filter((part) => !owner.has(part));
  const readers = (part: ConfigPart) => programs.filter((program) => program.parts.includes(part));
  const anchors = [...programs.map((program) => program.id), ...[...owner.keys(), ...shared].map((part) => part.id)];
  const repeated = anchors.filter((id, index) => anchors.indexOf(id) !== index);
  if (repeated.length > 0) throw new Error(`anchors used twice: ${repeated.join(', ')}`);

  /**
   * What `program` reads besides its own parts: another program's settings named once when it reads all of
   * them (the demo reads the worker's and the dashboard's), then the shared parts left.
   */
  const readsElsewhere = (program: ProgramConfig<unknown>): string[] => {
    const covered = new Set<ConfigPart>(program.own);
    const names: string[] = [];
    for (const other of programs) {
      if (other === program || other.own.length === 0) continue;
      if (!other.parts.every((part) => program.parts.includes(part))) continue;
      names.push(`[${possessive(other.title)} settings](#${other.id})`);
      for (const part of other.parts) covered.add(part);
    }
    return [...names, ...program.parts.filter((part) => !covered.has(part)).map(partLink)];
  };

  const lines: string[] = [
    '# Configuration',
    '',
    "<!-- Generated by scripts/docs/config-reference.ts from the programs' zod schemas: do not edit. A variable's",
    'text is the documentation it carries in its schema; after changing one, run `npx tsx scripts/docs/config-reference.ts`',
    '(its --check runs with the unit tests). -->',
    '',
    'Every setting is an environment variable. Each program reads and validates its own, once, at start-up: the parts',
    'it shares with others (defined in `lib/config/base.ts`) and its own (defined beside it). A bad value stops the',
    'program that reads it with a message naming every bad variable, the problem and an example, and no other program:',
    'a bad `DEMO_*` value stops `npm run demo`, never the dashboard or the worker. Secrets (passwords, keys, tokens,',
    'webhook URLs) are never logged or quoted in an error. An empty value means unset.',
    '',
    '## Programs',
    '',
    '| program | started by | reads | its schema |',
    '| --- | --- | --- | --- |',
    ...programs.map(
      (program) =>
        `| ${programHeading(program)} | ${commands(program)} | ${[...readsElsewhere(program), ...program.own.map(partLink)].join(', ')} | \`${program.module}\` |`,
    ),
  ];
  for (const program of programs) {
    const elsewhere = readsElsewhere(program);
    lines.push(
      '',
      `${anchor(program.id)}`,
      `## ${program.title}`,
      '',
      `${program.about} Started by ${commands(program)}; its schema: \`${program.module}\`.`,
    );
    if (elsewhere.length > 0) {
      lines.push('', `It reads ${elsewhere.join(', ')}${program.own.length > 0 ? ', and its own:' : '.'}`);
    }
    for (const part of program.own) {
      const others = readers(part).filter((reader) => reader !== program);
      lines.push('', anchor(part.id), `### ${part.title}`, '', part.about);
      if (others.length > 0) lines.push('', `Also read by ${others.map(programLink).join(', ')}.`);
      lines.push('', ...partTable(part));
    }
  }
  lines.push('', '## Settings several programs share');
  for (const part of shared) {
    lines.push(
      '',
      anchor(part.id),
      `### ${part.title}`,
      '',
      `${part.about} Read by ${readers(part).map(programLink).join(', ')}.`,
      '',
      ...partTable(part),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Whether `file` holds `text` (a missing file is stale). */
export function isCurrent(file: string, text: string): boolean {
  try {
    return readFileSync(file, 'utf8') === text;
  } catch {
    return false;
  }
}

export function main(argv: string[], file = REFERENCE_FILE): Promise<number | 'help'> {
  const { values } = parseCommandLine(argv, { check: { type: 'boolean', default: false } });
  if (values.help) return Promise.resolve('help');
  const text = configReferenceText();
  const shown = path.relative(process.cwd(), file);
  if (values.check) {
    if (isCurrent(file, text)) return Promise.resolve(0);
    console.error(`config-reference: ${shown} is stale; run npx tsx scripts/docs/config-reference.ts`);
    return Promise.resolve(1);
  }
  writeFileSync(file, text);
  console.log(`wrote ${shown}`);
  return Promise.resolve(0);
}

// Runs only as the entry point (tsx scripts/docs/config-reference.ts), not when a test imports it.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runCommandLine('config-reference', USAGE, (argv) => main(argv));
}
