import { z } from 'zod';

// How a program reads its configuration. Each program (the worker, the dashboard, the demo, the bench, npm
// test...) declares the parts it reads: shared ones from lib/config/base.ts and its own beside it. A part is a
// zod shape whose every variable carries its documentation (what it means, an example, what unset means),
// from which errors quote examples and docs/operating/configuration.md is generated
// (scripts/docs/config-reference.ts). A program parses its parts only, once, from the environment: a bad
// value stops the program that reads it, with one error naming every bad variable, the problem and an
// example, and no other program. This module is the only one that touches process.env. Unit tests never
// read the environment: they call a program's parse() with variables of their own.

/** Environment variables as given; an empty string means unset, as in most shells' `VAR= command`. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** What the configuration reference and the error messages say about one variable. */
export interface SettingDoc {
  /** What it means: the reference's text. */
  description: string;
  /** A working value, quoted in start-up errors so the fix is one copy-paste away. */
  example: string;
  /** What leaving it unset means, for a variable without a default (e.g. "the bundled broker"). */
  unset?: string;
  /** Shown in the reference's default column instead of the schema's default (e.g. a derived one). */
  defaultText?: string;
  /** Its value is never quoted in an error message (it may hold a password or a token). */
  secret?: boolean;
}

const settingDocs = z.registry<SettingDoc>();

declare const DOCUMENTED: unique symbol;
/** A variable's schema that carries its documentation: the only kind a part accepts. */
export type DocumentedSetting<T extends z.ZodType = z.ZodType> = T & { readonly [DOCUMENTED]: true };

/** `schema` with its documentation (a copy of its own: one schema may serve several variables). */
export function setting<T extends z.ZodType>(schema: T, doc: SettingDoc): DocumentedSetting<T> {
  const own = schema.clone() as T;
  settingDocs.add(own, doc);
  return own as DocumentedSetting<T>;
}

/** The documentation of a variable's schema (every schema of a part has one). */
export function settingDoc(schema: z.ZodType): SettingDoc {
  const doc = settingDocs.get(schema);
  if (doc === undefined) throw new Error('a configuration variable without documentation (use setting())');
  return doc;
}

export type SettingsShape = Record<string, DocumentedSetting>;

/** Reports a problem of one variable found by a part's check across its variables. */
export type ReportProblem = (variable: string, message: string) => void;

/** A group of variables that belong together, read by one program or shared by several. */
export interface ConfigPart<S extends SettingsShape = SettingsShape, D extends object = object> {
  /** Its anchor in the configuration reference. */
  id: string;
  title: string;
  /** One or two sentences on what the part configures and who reads it, for the reference. */
  about: string;
  shape: S;
  /**
   * Checks across the part's variables and the values derived from them (e.g. the Kafka security settings,
   * with the PEM files read); called once every variable of the program parsed. Problems go to `report`.
   */
  derive?: (values: z.output<z.ZodObject<S>>, report: ReportProblem) => D;
}

/** A part, typed by its shape and derived values. */
export function configPart<S extends SettingsShape, D extends object = object>(
  part: ConfigPart<S, D>,
): ConfigPart<S, D> {
  return part;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any part, whatever its shape and derived values
type AnyPart = ConfigPart<any, any>;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type PartOutput<P> = P extends ConfigPart<infer S, infer D> ? z.output<z.ZodObject<S>> & D : never;
/** The parsed configuration of a program that reads `Parts`. */
export type ConfigOf<Parts extends readonly AnyPart[]> = UnionToIntersection<PartOutput<Parts[number]>>;

export interface ProgramDefinition<Reads extends readonly AnyPart[], Own extends readonly AnyPart[]> {
  /** Its anchor in the configuration reference. */
  id: string;
  /** Its name in the reference, e.g. "The worker". */
  title: string;
  /** How it is started, e.g. "npm run worker". */
  command: string;
  /** The module that defines its configuration, from the repository root. */
  module: string;
  about: string;
  /** Parts defined elsewhere (lib/config/base.ts, or another program's when it runs that program too). */
  reads: Reads;
  /** Parts defined beside the program, documented under it. */
  own: Own;
}

export interface ProgramConfig<
  T,
  Reads extends readonly AnyPart[] = readonly AnyPart[],
  Own extends readonly AnyPart[] = readonly AnyPart[],
> extends ProgramDefinition<Reads, Own> {
  /** Every part, each once: `reads` then `own`. */
  parts: readonly AnyPart[];
  /** Every variable the program reads and its schema. */
  shape: SettingsShape;
  /** The variables in, the program's configuration (derived values included) out. */
  schema: z.ZodType<T>;
  /** The configuration of `env`; throws ConfigError naming every bad variable. */
  parse(env: Environment): T;
  /** The configuration of process.env, parsed once per process; throws ConfigError naming every bad variable. */
  load(): T;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid Warden configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** A program's configuration from its parts. Throws at once if two parts declare the same variable. */
export function defineProgramConfig<const Reads extends readonly AnyPart[], const Own extends readonly AnyPart[]>(
  definition: ProgramDefinition<Reads, Own>,
): ProgramConfig<ConfigOf<[...Reads, ...Own]>, Reads, Own> {
  type Config = ConfigOf<[...Reads, ...Own]>;
  const parts = [...new Set<AnyPart>([...definition.reads, ...definition.own])];
  const shape: SettingsShape = {};
  for (const part of parts) {
    for (const [name, schema] of Object.entries(part.shape as SettingsShape)) {
      if (name in shape) throw new Error(`${definition.id}: ${name} is declared by two parts`);
      shape[name] = schema;
    }
  }
  const schema = z.object(shape).transform((values, ctx) => {
    let failed = false;
    const report: ReportProblem = (variable, message) => {
      failed = true;
      ctx.addIssue({ code: 'custom', path: [variable], message, input: values[variable] });
    };
    const derived: Record<string, unknown> = {};
    for (const part of parts) if (part.derive) Object.assign(derived, part.derive(values, report));
    return failed ? z.NEVER : ({ ...values, ...derived } as Config);
  });
  const parse = (env: Environment): Config => {
    const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
    const result = schema.safeParse(given);
    if (!result.success) {
      throw new ConfigError(
        result.error.issues.map((issue) => describeProblem(shape, String(issue.path[0]), given, issue.message)),
      );
    }
    return result.data;
  };
  let loaded: Config | undefined;
  return {
    ...definition,
    parts,
    shape,
    schema: schema as unknown as z.ZodType<Config>,
    parse,
    load: () => (loaded ??= parse(process.env)),
  };
}

/** `NAME="value": problem (example: NAME=example)`; a secret's value is never quoted. */
function describeProblem(shape: SettingsShape, name: string, given: Environment, message: string): string {
  const schema = shape[name];
  const doc = schema === undefined ? undefined : settingDoc(schema);
  const value = given[name];
  const shown = value === undefined ? 'missing' : doc?.secret ? '(set; value not shown)' : `"${value}"`;
  return `${name}=${shown}: ${message} (example: ${name}=${doc?.example ?? '?'})`;
}

/** The environment to hand to a child process, with overrides. */
export function childProcessEnv(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...overrides };
}

/** The least environment a child process outside this repository's programs needs: PATH and HOME, and `extra`. */
export function minimalChildEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...extra };
}

/**
 * Sets `name` in this process's environment unless it is set: for tools that read the environment
 * themselves (the Prisma CLI resolves env("DATABASE_URL") in the schema).
 */
export function provideToEnvironment(name: string, value: string): void {
  process.env[name] ??= value;
}

/** A configuration of `parts` alone, for tests that parse a part without a whole program. */
export function partsConfig<const Parts extends readonly AnyPart[]>(...parts: Parts) {
  return defineProgramConfig({
    id: 'parts',
    title: 'parts',
    command: '',
    module: '',
    about: '',
    reads: parts,
    own: [],
  });
}
