import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { databasePart, kafkaPart } from '../../lib/config/base';
import { settingDoc } from '../../lib/config/program-config';
import { PROGRAM_CONFIGS } from './config-programs';

const ROOT = path.resolve(__dirname, '..', '..');
const named = (id: string) => PROGRAM_CONFIGS.find((program) => program.id === id)!;

describe("every program's configuration", () => {
  it('lives in the module it names, and documents every variable with a description and an example', () => {
    for (const program of PROGRAM_CONFIGS) {
      expect(existsSync(path.join(ROOT, program.module)), program.module).toBe(true);
      for (const [name, schema] of Object.entries(program.shape)) {
        const doc = settingDoc(schema);
        expect(doc.description.length, name).toBeGreaterThan(10);
        expect(doc.example.length, name).toBeGreaterThan(0);
      }
    }
  });

  it('is stopped by a bad variable of a part it reads, and by nothing else', () => {
    const allVariables = new Set(PROGRAM_CONFIGS.flatMap((program) => Object.keys(program.shape)));
    const reads = (id: string, variable: string) => variable in named(id).shape;
    const bad: Record<string, string> = {
      DATABASE_URL: 'mysql://x',
      KAFKA_BROKERS: 'nohost',
      DEMO_SCENARIO: 'chaos',
      WARDEN_BENCH_PORT_BASE: '80',
      WARDEN_VERIFY_PORT_BASE: '80',
      WARDEN_TEST_PORT_BASE: '80',
      WARDEN_FUZZ_SEED: '-1',
      WORKER_PORT: '70000',
      UI_PORT: '70000',
    };
    for (const variable of Object.keys(bad)) expect(allVariables.has(variable), variable).toBe(true);
    for (const program of PROGRAM_CONFIGS) {
      for (const [variable, value] of Object.entries(bad)) {
        const parse = () => program.parse({ [variable]: value });
        if (reads(program.id, variable)) expect(parse, `${program.id} ${variable}`).toThrow(`${variable}="${value}"`);
        else expect(parse, `${program.id} ${variable}`).not.toThrow();
      }
    }
    // The dashboard and the worker read no other program's own settings.
    for (const id of ['worker', 'dashboard']) {
      for (const variable of ['DEMO_SCENARIO', 'WARDEN_BENCH_PORT_BASE', 'WARDEN_TEST_PORT_BASE', 'WARDEN_FUZZ_SEED'])
        expect(reads(id, variable), `${id} ${variable}`).toBe(false);
    }
  });

  it('derives the Kafka connection and every cluster wherever it reads Kafka (the dashboard resets offsets on any cluster)', () => {
    const readingKafka = PROGRAM_CONFIGS.filter((program) => program.parts.includes(kafkaPart));
    expect(readingKafka.map((program) => program.id)).toEqual(
      expect.arrayContaining(['worker', 'dashboard', 'demo', 'bench', 'tests', 'test-runner']),
    );
    for (const program of readingKafka) {
      const config = program.parse({ KAFKA_BROKERS: 'a:1', WARDEN_CLUSTERS: '[{"name":"x","brokers":"b:2"}]' });
      expect(config, program.id).toMatchObject({
        kafkaBrokers: ['a:1'],
        usesLocalBroker: false,
        clusters: [expect.objectContaining({ name: 'default' }), expect.objectContaining({ name: 'x' })],
      });
      expect(() => program.parse({ WARDEN_CLUSTERS: '[{"name":"x","brokers":"bad"}]' }), program.id).toThrow(
        'cluster "x" brokers: "bad" is not host:port',
      );
    }
    expect(PROGRAM_CONFIGS.every((program) => program.parts.includes(databasePart))).toBe(true);
  });

  it('reads its port base within range, refusing one that is not', () => {
    expect(named('bench').parse({ WARDEN_BENCH_PORT_BASE: '30000' })).toMatchObject({ WARDEN_BENCH_PORT_BASE: 30_000 });
    expect(() => named('verify').parse({ WARDEN_VERIFY_PORT_BASE: '80' })).toThrow(
      /WARDEN_VERIFY_PORT_BASE="80".*example: WARDEN_VERIFY_PORT_BASE=21000/,
    );
    expect(() => named('backtest').parse({ WARDEN_BACKTEST_PORT_BASE: '60001' })).toThrow(/WARDEN_BACKTEST_PORT_BASE/);
  });
});
