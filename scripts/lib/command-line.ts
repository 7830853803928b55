import { parseArgs, type ParseArgsConfig } from 'node:util';

// The scripts' command lines, through Node's util.parseArgs in strict mode: an unknown option, a missing
// value or an unexpected argument is a UsageError naming it, and `--help` / `-h` is known to every script.
// Nothing here exits or prints; `runCommandLine` does that for a script's entry point.

type Options = NonNullable<ParseArgsConfig['options']>;

/** A command line the script cannot run with; the message names the argument. */
export class UsageError extends Error {
  override name = 'UsageError';
}

const HELP_OPTION = { help: { type: 'boolean', short: 'h', default: false } } as const;

/** Node's messages for the usage errors, reworded to name the argument first. */
function describeParseError(error: Error & { code?: string }): string {
  const option = /'(-[^' <]+)/.exec(error.message)?.[1];
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option "${option ?? error.message}"`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument "${/'([^']*)'/.exec(error.message)?.[1] ?? error.message}"`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return error.message.includes('does not take an argument')
        ? `${option} takes no value`
        : `${option} needs a value (--name=value when the value starts with a dash)`;
    default:
      return error.message;
  }
}

/**
 * Parses `argv` (without node and the script) against `options` plus `--help`. Throws UsageError for an
 * unknown option, a missing or unwanted value, or a positional argument when `allowPositionals` is false.
 */
export function parseCommandLine<O extends Options>(
  argv: readonly string[],
  options: O,
  { allowPositionals = false }: { allowPositionals?: boolean } = {},
) {
  try {
    const parsed = parseArgs({
      args: [...argv],
      options: { ...options, ...HELP_OPTION },
      strict: true,
      allowPositionals,
    });
    return { values: parsed.values, positionals: parsed.positionals as string[] };
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS_')) {
      throw new UsageError(describeParseError(error as Error & { code?: string }));
    }
    throw error;
  }
}

/**
 * A script's entry point: `main` gets argv; a UsageError prints its message and `usage` and exits 2,
 * `--help` (when main returns 'help') prints `usage` and exits 0, any other error prints and exits
 * `errorExitCode` (default 1).
 */
export function runCommandLine(
  name: string,
  usage: string,
  main: (argv: string[]) => Promise<number | 'help'>,
  { errorExitCode = 1 }: { errorExitCode?: number } = {},
): void {
  main(process.argv.slice(2)).then(
    (outcome) => {
      if (outcome === 'help') console.log(usage);
      process.exit(outcome === 'help' ? 0 : outcome);
    },
    (error: Error) => {
      if (error instanceof UsageError) {
        console.error(`${name}: ${error.message}\n${usage}`);
        process.exit(2);
      }
      console.error(`${name}: ${error.stack ?? error.message}`);
      process.exit(errorExitCode);
    },
  );
}

/** `--duration` as milliseconds: a number of seconds or minutes such as 90s or 20m. Throws UsageError. */
export function parseDuration(value: string): number {
  const match = /^(\d+(?:\.\d+)?)(s|m)$/.exec(value);
  if (!match) throw new UsageError(`--duration must be like 90s or 20m, got "${value}"`);
  return Math.round(Number(match[1]) * (match[2] === 'm' ? 60_000 : 1_000));
}

/** `--seed` as a non-negative integer; drawn at random when absent (the caller prints it). Throws UsageError. */
export function parseSeed(value: string | undefined): number {
  if (value === undefined) return Math.floor(Math.random() * 1_000_000);
  if (!/^\d+$/.test(value)) throw new UsageError(`--seed must be a non-negative integer, got "${value}"`);
  return Number(value);
}
