import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { configPart, ConfigError, defineProgramConfig, partsConfig, setting, settingDoc } from './program-config';

const portPart = configPart({
  id: 'probe',
  title: 'Probe',
  about: 'A part of the tests.',
  shape: {
    PROBE_PORT: setting(z.coerce.number().int().min(1).max(65_535).default(8080), {
      description: 'a port',
      example: '8080',
    }),
    PROBE_TOKEN: setting(z.string().min(8, 'must be at least 8 characters').optional(), {
      description: 'a token',
      example: '<a token>',
      secret: true,
    }),
  },
});

const pairPart = configPart({
  id: 'pair',
  title: 'Pair',
  about: 'Two values that must differ.',
  shape: {
    PROBE_LOW: setting(z.coerce.number().default(1), { description: 'low', example: '1' }),
    PROBE_HIGH: setting(z.coerce.number().default(2), { description: 'high', example: '2' }),
  },
  derive: (values, report) => {
    if (values.PROBE_HIGH <= values.PROBE_LOW) report('PROBE_HIGH', `must be above PROBE_LOW (${values.PROBE_LOW})`);
    return { span: values.PROBE_HIGH - values.PROBE_LOW };
  },
});

const probe = partsConfig(portPart, pairPart);

/** The problems of `env`'s ConfigError, or a failure when it parses. */
function problemsOf(parse: () => unknown): string[] {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('a program configuration', () => {
  it('fills defaults, treats empty strings as unset, ignores variables of no part, and adds derived values', () => {
    const config = probe.parse({ PROBE_PORT: '', PROBE_HIGH: '5', OTHER: 'x' });
    expect(config).toEqual({ PROBE_PORT: 8080, PROBE_LOW: 1, PROBE_HIGH: 5, span: 4 });
  });

  it('names every bad variable with its value, the problem and an example, a secret without its value', () => {
    const problems = problemsOf(() => probe.parse({ PROBE_PORT: '70000', PROBE_TOKEN: 'short', PROBE_LOW: 'x' }));
    expect(problems).toHaveLength(3);
    expect(problems).toContainEqual(expect.stringMatching(/^PROBE_PORT="70000": .*\(example: PROBE_PORT=8080\)$/));
    expect(problems).toContainEqual(
      'PROBE_TOKEN=(set; value not shown): must be at least 8 characters (example: PROBE_TOKEN=<a token>)',
    );
    expect(problems.join('\n')).not.toContain('short');
    expect(problems).toContainEqual(expect.stringMatching(/^PROBE_LOW="x": /));
  });

  it("reports a part's check across its variables once every variable parsed, naming the variable", () => {
    expect(problemsOf(() => probe.parse({ PROBE_LOW: '3', PROBE_HIGH: '3' }))).toEqual([
      'PROBE_HIGH="3": must be above PROBE_LOW (3) (example: PROBE_HIGH=2)',
    ]);
    // A bad single variable stops the parse before any check across variables runs.
    expect(problemsOf(() => probe.parse({ PROBE_LOW: '3', PROBE_HIGH: '3', PROBE_PORT: '0' }))).toEqual([
      expect.stringMatching(/^PROBE_PORT="0"/),
    ]);
  });

  it('keeps each part once, and refuses two parts declaring one variable', () => {
    const twice = defineProgramConfig({
      id: 'twice',
      title: 'Twice',
      command: 'x',
      module: 'x',
      about: 'x',
      reads: [portPart, pairPart],
      own: [portPart],
    });
    expect(twice.parts).toEqual([portPart, pairPart]);
    const clash = configPart({
      id: 'clash',
      title: 'Clash',
      about: 'Declares PROBE_PORT again.',
      shape: { PROBE_PORT: setting(z.string().default('x'), { description: 'again', example: 'x' }) },
    });
    expect(() => partsConfig(portPart, clash)).toThrow('parts: PROBE_PORT is declared by two parts');
  });

  it('gives each variable its own schema instance, so one parser serves several documented variables', () => {
    const shared = z.string().optional();
    const first = setting(shared, { description: 'first', example: '1' });
    const second = setting(shared, { description: 'second', example: '2' });
    expect([settingDoc(first).description, settingDoc(second).description]).toEqual(['first', 'second']);
    expect(() => settingDoc(shared)).toThrow('without documentation');
  });
});
