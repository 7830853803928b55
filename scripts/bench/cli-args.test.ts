import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from './cli-args';

describe('bench arguments', () => {
  it('defaults to the full bench', () => {
    expect(parseBenchArgs([])).toEqual({
      mode: 'full',
      only: [],
      repeat: null,
      commitIntervalMs: null,
      cpuProfile: false,
      help: false,
    });
  });

  it('reads every option, with or without =', () => {
    expect(
      parseBenchArgs(['--quick', '--only', '2, 7', '--repeat=2', '--commit-interval-ms', '100', '--cpu-prof']),
    ).toEqual({
      mode: 'quick',
      only: ['2', '7'],
      repeat: 2,
      commitIntervalMs: 100,
      cpuProfile: true,
      help: false,
    });
    expect(parseBenchArgs(['--only=9']).only).toEqual(['9']);
  });

  it('reads --help and -h', () => {
    expect(parseBenchArgs(['--help']).help).toBe(true);
    expect(parseBenchArgs(['-h']).help).toBe(true);
  });

  it('names the bad argument', () => {
    expect(() => parseBenchArgs(['--fast'])).toThrow('unknown option "--fast"');
    expect(() => parseBenchArgs(['--quick=yes'])).toThrow('--quick takes no value');
    expect(() => parseBenchArgs(['2'])).toThrow('unexpected argument "2"');
    expect(() => parseBenchArgs(['--only='])).toThrow('--only needs a value');
    expect(() => parseBenchArgs(['--only'])).toThrow('--only needs a value');
    expect(() => parseBenchArgs(['--only', ','])).toThrow('--only needs at least one workload id');
    expect(() => parseBenchArgs(['--repeat', '0'])).toThrow('--repeat must be an integer from 1 to 20, got "0"');
    expect(() => parseBenchArgs(['--commit-interval-ms', '-1'])).toThrow(
      '--commit-interval-ms needs a value (--name=value',
    );
    expect(() => parseBenchArgs(['--commit-interval-ms=-1'])).toThrow(
      '--commit-interval-ms must be an integer from 0 to 60000, got "-1"',
    );
  });
});
