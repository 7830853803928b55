import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseCommandLine, parseDuration, parseSeed, UsageError } from './command-line';

const ROOT = path.resolve(__dirname, '..', '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');

describe('parseCommandLine', () => {
  const options = { quick: { type: 'boolean', default: false }, only: { type: 'string' } } as const;

  it('reads booleans, values with or without =, and --help / -h', () => {
    expect(parseCommandLine(['--quick', '--only', '2,7'], options).values).toEqual({
      quick: true,
      only: '2,7',
      help: false,
    });
    expect(parseCommandLine(['--only=-1'], options).values.only).toBe('-1');
    expect(parseCommandLine(['--help'], options).values.help).toBe(true);
    expect(parseCommandLine(['-h'], options).values.help).toBe(true);
  });

  it('names an unknown option, a missing or unwanted value and an unexpected argument', () => {
    const usage = (argv: string[]) => {
      try {
        parseCommandLine(argv, options);
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as Error).message;
      }
      throw new Error(`${argv.join(' ')} was accepted`);
    };
    expect(usage(['--fast'])).toBe('unknown option "--fast"');
    expect(usage(['-x'])).toBe('unknown option "-x"');
    expect(usage(['--only'])).toBe('--only needs a value (--name=value when the value starts with a dash)');
    expect(usage(['--only', '-1'])).toMatch(/^--only needs a value/);
    expect(usage(['--quick=yes'])).toBe('--quick takes no value');
    expect(usage(['extra'])).toBe('unexpected argument "extra"');
  });

  it('returns positionals when they are allowed, arguments after -- included', () => {
    const parsed = parseCommandLine(['unit', 'lib/lag', '--', '-t', 'x'], {}, { allowPositionals: true });
    expect(parsed.positionals).toEqual(['unit', 'lib/lag', '-t', 'x']);
  });
});

// Every script that takes arguments, run for real: --help prints its usage and exits 0, an unknown flag
// names the flag and exits 2, in both cases before the script touches a broker, a database or a terminal.
const SCRIPTS = [
  { file: 'scripts/auth-hash.ts', usage: 'usage: npm run -s auth:hash' },
  { file: 'scripts/demo.ts', usage: 'usage: npm run demo' },
  { file: 'scripts/bench/main.ts', usage: 'usage: npm run bench' },
  { file: 'scripts/bench/child.ts', usage: 'usage: tsx scripts/bench/child.ts' },
  { file: 'scripts/test.ts', usage: 'usage: npm test' },
  { file: 'scripts/verify/main.ts', usage: 'usage: npm run verify' },
  { file: 'scripts/security/scan.ts', usage: 'usage: npm run security:scan' },
  { file: 'scripts/backtest/main.ts', usage: 'usage: npm run backtest' },
];

async function runScript(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(TSX, [file, ...args], { cwd: ROOT, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

describe('the scripts’ command lines', { timeout: 180_000 }, () => {
  it('print their usage for --help and refuse an unknown flag by name', async () => {
    const results = await Promise.all(
      SCRIPTS.map(async ({ file, usage }) => ({
        file,
        usage,
        help: await runScript(file, ['--help']),
        bogus: await runScript(file, ['--bogus-flag']),
      })),
    );
    for (const { file, usage, help, bogus } of results) {
      expect({ file, code: help.code, usage: help.stdout.includes(usage) }).toEqual({ file, code: 0, usage: true });
      expect({ file, code: bogus.code }).toEqual({ file, code: 2 });
      expect(bogus.stderr, file).toContain('unknown option "--bogus-flag"');
      expect(bogus.stderr, file).toContain(usage);
    }
  });
});

describe('parseDuration and parseSeed', () => {
  it('reads seconds and minutes, and integer seeds', () => {
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('1.5m')).toBe(90_000);
    expect(parseSeed('42')).toBe(42);
    expect(Number.isInteger(parseSeed(undefined))).toBe(true);
  });

  it('refuses anything else as a usage error', () => {
    expect(() => parseDuration('20')).toThrow(UsageError);
    expect(() => parseDuration('1h')).toThrow(/--duration must be like 90s or 20m/);
    expect(() => parseSeed('-1')).toThrow(UsageError);
  });
});
