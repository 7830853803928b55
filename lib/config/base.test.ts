import { describe, expect, it } from 'vitest';
import { analysisPart, databasePart, deadLetterPart, kafkaPart, samplingPart } from './base';
import { ConfigError, partsConfig } from './program-config';

const base = partsConfig(databasePart, kafkaPart, samplingPart, analysisPart, deadLetterPart);

describe('the shared parts', () => {
  it('fill every default from an empty environment and use the local broker', () => {
    const config = base.parse({});
    expect(config.DATABASE_URL).toBe('postgresql://postgres@127.0.0.1:5432/warden');
    expect(config.kafkaBrokers).toEqual(['127.0.0.1:9092']);
    expect(config.usesLocalBroker).toBe(true);
    expect(config.clusters.map((c) => c.name)).toEqual(['default']);
    expect(config).toMatchObject({
      SAMPLE_INTERVAL_MS: 5000,
      SAMPLER_RETENTION_DAYS: 7,
      SAMPLER_ROLLUP_RETENTION_DAYS: 90,
      TIME_LAG_OBJECTIVE_MS: 300_000,
      WARDEN_DLQ_TOPIC: 'warden.demo.dlq',
    });
  });

  it('use KAFKA_BROKERS when set and treat empty strings as unset', () => {
    const config = base.parse({ KAFKA_BROKERS: 'a:1, b:2', SAMPLE_INTERVAL_MS: '' });
    expect(config.kafkaBrokers).toEqual(['a:1', 'b:2']);
    expect(config.usesLocalBroker).toBe(false);
    expect(config.SAMPLE_INTERVAL_MS).toBe(5000);
  });

  it('keep an idle group stored at least once a minute', () => {
    expect(base.parse({}).SAMPLE_IDLE_STORE_MS).toBe(30_000);
    expect(base.parse({ SAMPLE_INTERVAL_MS: '60000' }).SAMPLE_IDLE_STORE_MS).toBe(30_000);
    expect(base.parse({ SAMPLE_IDLE_STORE_MS: '0' }).SAMPLE_IDLE_STORE_MS).toBe(0);
    expect(() => base.parse({ SAMPLE_IDLE_STORE_MS: '56000' })).toThrow(
      /SAMPLE_IDLE_STORE_MS="56000": plus SAMPLE_INTERVAL_MS \(5000\) must be at most 60000/,
    );
    expect(() => base.parse({ SAMPLE_IDLE_STORE_MS: '-1' })).toThrow(ConfigError);
  });

  it('name a bad broker list and database URL with an example', () => {
    let error: unknown;
    try {
      base.parse({ KAFKA_BROKERS: 'nohost', DATABASE_URL: 'mysql://x', SAMPLER_RETENTION_DAYS: '0' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(3);
    expect(problems.find((p) => p.startsWith('KAFKA_BROKERS="nohost"'))).toMatch(
      /not host:port.*example: KAFKA_BROKERS=127\.0\.0\.1:9092/,
    );
    expect(problems.find((p) => p.startsWith('DATABASE_URL='))).toMatch(/postgresql:\/\//);
    expect(problems.find((p) => p.startsWith('SAMPLER_RETENTION_DAYS="0"'))).toMatch(/SAMPLER_RETENTION_DAYS=7\)$/);
  });

  it('read the advisor client settings: none by default, JSON by group id or /pattern/, bad JSON named', () => {
    const none = base.parse({}).ADVISOR_CLIENT_SETTINGS;
    expect(none.exact.size + none.patterns.length).toBe(0);
    const settings = base.parse({
      ADVISOR_CLIENT_SETTINGS: '{"orders":{"maxPollRecords":100},"/^etl-/":{"maxPollIntervalMs":900000}}',
    }).ADVISOR_CLIENT_SETTINGS;
    expect(settings.exact.get('orders')).toEqual({ maxPollRecords: 100 });
    expect(settings.patterns[0]?.pattern.test('etl-nightly')).toBe(true);
    expect(() => base.parse({ ADVISOR_CLIENT_SETTINGS: '{"orders":{"maxPollRecords":-1}}' })).toThrow(
      /ADVISOR_CLIENT_SETTINGS=.*"orders".maxPollRecords must be a positive integer.*example: ADVISOR_CLIENT_SETTINGS=/,
    );
  });

  it('never quote WARDEN_CLUSTERS, which may hold passwords', () => {
    expect(() => base.parse({ WARDEN_CLUSTERS: '[{"name":"x","brokers":"bad","saslPassword":"hunter2"}]' })).toThrow(
      /^(?![\s\S]*hunter2)[\s\S]*WARDEN_CLUSTERS=\(set; value not shown\): cluster "x" brokers: "bad" is not host:port/,
    );
  });
});
