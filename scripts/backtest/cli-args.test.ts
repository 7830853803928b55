import { describe, expect, it } from 'vitest';
import { UsageError } from '../lib/command-line';
import { parseBacktestArgs } from './cli-args';

describe('parseBacktestArgs', () => {
  it('runs every scenario once by default, or the named ones N times', () => {
    expect(parseBacktestArgs({})).toEqual({ repeat: 1, only: ['io-bound', 'hot-partition', 'shared-limit'] });
    expect(parseBacktestArgs({ repeat: '5', only: 'io-bound, hot-partition' })).toEqual({
      repeat: 5,
      only: ['io-bound', 'hot-partition'],
    });
  });

  it('names a bad value', () => {
    expect(() => parseBacktestArgs({ repeat: '0' })).toThrow(
      new UsageError('--repeat must be an integer from 1 to 20, got "0"'),
    );
    expect(() => parseBacktestArgs({ repeat: '2.5' })).toThrow(UsageError);
    expect(() => parseBacktestArgs({ only: 'io-bound,cpu-bound' })).toThrow(
      '--only takes scenario names from io-bound, hot-partition, shared-limit, got "io-bound,cpu-bound"',
    );
  });
});
