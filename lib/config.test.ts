import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig, PROGRAM_SCHEMAS } from './config';

describe('parseConfig', () => {
  it('fills every default from an empty environment and uses the local broker', () => {
    const config = parseConfig({});
    expect(config.DATABASE_URL).toBe('postgresql://postgres@127.0.0.1:5432/warden');
    expect(config.kafkaBrokers).toEqual(['127.0.0.1:9092']);
    expect(config.usesLocalBroker).toBe(true);
    expect(config.SAMPLE_INTERVAL_MS).toBe(5000);
    expect(config.WARDEN_COMMIT_METADATA).toBe(true);
    expect(config.SAMPLER_GROUP_INCLUDE).toBeNull();
  });

  it('uses KAFKA_BROKERS when set and treats empty strings as unset', () => {
    const config = parseConfig({ KAFKA_BROKERS: 'a:1, b:2', SAMPLE_INTERVAL_MS: '' });
    expect(config.kafkaBrokers).toEqual(['a:1', 'b:2']);
    expect(config.usesLocalBroker).toBe(false);
    expect(config.SAMPLE_INTERVAL_MS).toBe(5000);
  });

  it('keeps an idle group stored at least once a minute', () => {
    expect(parseConfig({}).SAMPLE_IDLE_STORE_MS).toBe(30_000);
    expect(parseConfig({ SAMPLE_INTERVAL_MS: '60000' }).SAMPLE_IDLE_STORE_MS).toBe(30_000);
    expect(parseConfig({ SAMPLE_IDLE_STORE_MS: '0' }).SAMPLE_IDLE_STORE_MS).toBe(0);
    expect(() => parseConfig({ SAMPLE_IDLE_STORE_MS: '56000' })).toThrow(
      /SAMPLE_IDLE_STORE_MS="56000": plus SAMPLE_INTERVAL_MS \(5000\) must be at most 60000/,
    );
    expect(() => parseConfig({ SAMPLE_IDLE_STORE_MS: '-1' })).toThrow(ConfigError);
  });

  it('parses booleans, numbers and patterns', () => {
    const config = parseConfig({
      WARDEN_COMMIT_METADATA: 'false',
      WORKER_PORT: '8080',
      SAMPLER_GROUP_INCLUDE: '^orders-',
    });
    expect(config.WARDEN_COMMIT_METADATA).toBe(false);
    expect(config.WORKER_PORT).toBe(8080);
    expect(config.SAMPLER_GROUP_INCLUDE?.test('orders-eu')).toBe(true);
  });

  it("takes a consumer group session within the broker's default bounds, and names them when refused", () => {
    expect(parseConfig({}, 'worker').WARDEN_SESSION_TIMEOUT_MS).toBe(30_000);
    expect(parseConfig({ WARDEN_SESSION_TIMEOUT_MS: '6000' }, 'worker').WARDEN_SESSION_TIMEOUT_MS).toBe(6_000);
    expect(() => parseConfig({ WARDEN_SESSION_TIMEOUT_MS: '5999' }, 'worker')).toThrow(
      /WARDEN_SESSION_TIMEOUT_MS="5999": must be at least 6000 \(the broker default group\.min\.session\.timeout\.ms\)/,
    );
    expect(() => parseConfig({ WARDEN_SESSION_TIMEOUT_MS: '1800001' }, 'worker')).toThrow(
      /must be at most 1800000 \(the broker default group\.max\.session\.timeout\.ms\)/,
    );
  });

  it('names every bad variable, its value, the problem and an example', () => {
    let error: unknown;
    try {
      parseConfig({
        KAFKA_BROKERS: 'nohost',
        WORKER_PORT: '70000',
        SAMPLER_GROUP_EXCLUDE: '(',
        DATABASE_URL: 'mysql://x',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(4);
    expect(problems.find((p) => p.startsWith('KAFKA_BROKERS="nohost"'))).toMatch(
      /not host:port.*example: KAFKA_BROKERS=127\.0\.0\.1:9092/,
    );
    expect(problems.find((p) => p.startsWith('WORKER_PORT="70000"'))).toMatch(/example: WORKER_PORT=9464/);
    expect(problems.find((p) => p.startsWith('SAMPLER_GROUP_EXCLUDE="("'))).toMatch(/regular expression/);
    expect(problems.find((p) => p.startsWith('DATABASE_URL='))).toMatch(/postgresql:\/\//);
  });

  it('rejects a bad enum with the allowed values', () => {
    expect(() => parseConfig({ WARDEN_ORDERING: 'random' })).toThrow(
      /WARDEN_ORDERING="random".*partition.*key.*unordered/,
    );
  });

  it('reads the commit source: auto by default, one of three, anything else names the variable', () => {
    expect(parseConfig({}).SAMPLER_COMMIT_SOURCE).toBe('auto');
    expect(parseConfig({ SAMPLER_COMMIT_SOURCE: 'sampled' }).SAMPLER_COMMIT_SOURCE).toBe('sampled');
    expect(() => parseConfig({ SAMPLER_COMMIT_SOURCE: 'topic' })).toThrow(
      /SAMPLER_COMMIT_SOURCE="topic".*auto, offsets-topic or sampled/,
    );
  });

  it('reads the sampler settings: defaults, 0 turns exact time lag off, a one-point window is refused', () => {
    expect(parseConfig({})).toMatchObject({
      SAMPLER_RETENTION_DAYS: 7,
      SAMPLER_ROLLUP_RETENTION_DAYS: 90,
      SAMPLER_EXACT_TIME_LAG_INTERVAL_MS: 15_000,
      SAMPLER_EXACT_TIME_LAG_MAX_PARTITIONS: 200,
      SAMPLER_TIME_LAG_POINTS: 60,
    });
    expect(parseConfig({ SAMPLER_EXACT_TIME_LAG_MAX_PARTITIONS: '0' }).SAMPLER_EXACT_TIME_LAG_MAX_PARTITIONS).toBe(0);
    expect(() => parseConfig({ SAMPLER_TIME_LAG_POINTS: '1' })).toThrow(
      /SAMPLER_TIME_LAG_POINTS="1".*example: SAMPLER_TIME_LAG_POINTS=60/,
    );
    expect(() => parseConfig({ SAMPLER_RETENTION_DAYS: '0' })).toThrow(/SAMPLER_RETENTION_DAYS="0"/);
  });

  it('reads the control plane: a topic-name prefix, an optional signing key never quoted, the state interval', () => {
    const defaults = parseConfig({}, 'worker');
    expect(defaults).toMatchObject({
      WARDEN_CONTROL_TOPIC_PREFIX: 'warden-control',
      WARDEN_CONTROL_STATE_INTERVAL_MS: 5_000,
    });
    expect(defaults.WARDEN_CONTROL_SIGNING_KEY).toBeUndefined();
    const key = 'k'.repeat(32);
    const signed = parseConfig({ WARDEN_CONTROL_SIGNING_KEY: key }, 'worker');
    expect(signed.WARDEN_CONTROL_SIGNING_KEY?.reveal()).toBe(key);
    expect(JSON.stringify(signed)).not.toContain(key);
    expect(() => parseConfig({ WARDEN_CONTROL_SIGNING_KEY: 'short-but-secret' }, 'worker')).toThrow(
      /WARDEN_CONTROL_SIGNING_KEY=\(set; value not shown\): must be at least 32/,
    );
    expect(() => parseConfig({ WARDEN_CONTROL_SIGNING_KEY: 'short-but-secret' }, 'worker')).not.toThrow(/short-but/);
    expect(() => parseConfig({ WARDEN_CONTROL_TOPIC_PREFIX: 'has space' }, 'worker')).toThrow(
      /WARDEN_CONTROL_TOPIC_PREFIX="has space": must be a Kafka topic-name prefix/,
    );
    expect(() => parseConfig({ WARDEN_CONTROL_STATE_INTERVAL_MS: '50' }, 'worker')).toThrow(
      /WARDEN_CONTROL_STATE_INTERVAL_MS="50"/,
    );
  });

  it('reads the advisor client settings: none by default, JSON by group id or /pattern/, bad JSON named', () => {
    const none = parseConfig({}).ADVISOR_CLIENT_SETTINGS;
    expect(none.exact.size + none.patterns.length).toBe(0);
    const settings = parseConfig({
      ADVISOR_CLIENT_SETTINGS: '{"orders":{"maxPollRecords":100},"/^etl-/":{"maxPollIntervalMs":900000}}',
    }).ADVISOR_CLIENT_SETTINGS;
    expect(settings.exact.get('orders')).toEqual({ maxPollRecords: 100 });
    expect(settings.patterns[0]?.pattern.test('etl-nightly')).toBe(true);
    expect(() => parseConfig({ ADVISOR_CLIENT_SETTINGS: '{"orders":{"maxPollRecords":-1}}' })).toThrow(
      /ADVISOR_CLIENT_SETTINGS=.*"orders".maxPollRecords must be a positive integer.*example: ADVISOR_CLIENT_SETTINGS=/,
    );
  });

  it('reads the alert settings and receivers; a malformed one stops start-up naming the variable, path and example', () => {
    const defaults = parseConfig({});
    expect(defaults.ALERT_SETTINGS.exact.size + defaults.ALERT_SETTINGS.patterns.length).toBe(0);
    expect(defaults.ALERT_WEBHOOK_URL).toBeUndefined();
    const configured = parseConfig({
      ALERT_SETTINGS: '{"orders":{"group-status":{"forMs":0}}}',
      ALERT_WEBHOOK_URL: 'https://alerts.example.com/hook',
      ALERT_SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T000/B000/XXXX',
    });
    expect(configured.ALERT_SETTINGS.exact.get('orders')).toEqual({ 'group-status': { forMs: 0 } });
    expect(configured.ALERT_SLACK_WEBHOOK_URL?.reveal()).toBe('https://hooks.slack.com/services/T000/B000/XXXX');
    expect(() => parseConfig({ ALERT_SETTINGS: '{"orders":{"group-status":{"forMs":-5}}}' })).toThrow(
      /ALERT_SETTINGS=.*"orders"\."group-status"\.forMs must be a duration in ms.*example: ALERT_SETTINGS=\{/,
    );
    expect(() => parseConfig({ ALERT_SETTINGS: '{"orders":{"lag":{}}}' })).toThrow(
      /ALERT_SETTINGS=.*unknown condition "lag".*example: ALERT_SETTINGS=/,
    );
    expect(() => parseConfig({ ALERT_SETTINGS: '{oops' })).toThrow(/ALERT_SETTINGS="\{oops": must be JSON/);
    expect(() => parseConfig({ ALERT_WEBHOOK_URL: 'ftp://alerts.example.com' })).toThrow(
      /ALERT_WEBHOOK_URL="ftp:\/\/alerts.example.com": must be an http:\/\/ or https:\/\/ URL \(example: ALERT_WEBHOOK_URL=https/,
    );
    // A secret URL is named, never quoted.
    let message = '';
    try {
      parseConfig({ ALERT_SLACK_WEBHOOK_URL: 'slack://T000/secret-token' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/ALERT_SLACK_WEBHOOK_URL=\(set; value not shown\): must be an http/);
    expect(message).not.toContain('secret-token');
  });
});

describe('one schema per program', () => {
  it("a bad DEMO_ variable stops the demo's configuration, not the dashboard's, the worker's or the bench's", () => {
    const env = { DEMO_SCENARIO: 'chaos', DEMO_STORY_SPEED: '100' };
    expect(parseConfig(env, 'dashboard').UI_PORT).toBe(3000);
    expect(parseConfig(env, 'worker').WORKER_PORT).toBe(9464);
    expect(parseConfig(env, 'bench').WARDEN_BENCH_PORT_BASE).toBe(20_000);
    let error: unknown;
    try {
      parseConfig(env, 'demo');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(2);
    expect(problems.find((p) => p.startsWith('DEMO_SCENARIO="chaos"'))).toMatch(
      /story.*steady.*example: DEMO_SCENARIO=story/,
    );
    expect(problems.find((p) => p.startsWith('DEMO_STORY_SPEED="100"'))).toMatch(/example: DEMO_STORY_SPEED=1/);
    expect(() => parseConfig(env)).toThrow(/DEMO_SCENARIO="chaos"/);
  });

  it('a bad dashboard variable stops the dashboard, not the worker; a bad worker variable the reverse', () => {
    const badSecret = { WARDEN_SESSION_SECRET: 'short' };
    expect(() => parseConfig(badSecret, 'dashboard')).toThrow(
      /WARDEN_SESSION_SECRET=\(set; value not shown\): must be at least 32/,
    );
    expect(parseConfig(badSecret, 'worker').WARDEN_ORDERING).toBe('key');
    const badOrdering = { WARDEN_ORDERING: 'random' };
    expect(() => parseConfig(badOrdering, 'worker')).toThrow(/WARDEN_ORDERING="random"/);
    expect(parseConfig(badOrdering, 'dashboard').UI_REFRESH_MS).toBe(3_000);
  });

  it('a bad base variable stops every program, and every program derives the Kafka settings', () => {
    for (const program of Object.keys(PROGRAM_SCHEMAS) as Array<keyof typeof PROGRAM_SCHEMAS>) {
      expect(() => parseConfig({ KAFKA_BROKERS: 'nohost' }, program), program).toThrow(/KAFKA_BROKERS="nohost"/);
      expect(parseConfig({ KAFKA_BROKERS: 'a:1' }, program).kafkaBrokers, program).toEqual(['a:1']);
    }
  });

  it('reads the bench and verify port bases, refusing one out of range', () => {
    const config = parseConfig({ WARDEN_BENCH_PORT_BASE: '30000', WARDEN_VERIFY_PORT_BASE: '31000' }, 'bench');
    expect([config.WARDEN_BENCH_PORT_BASE, config.WARDEN_VERIFY_PORT_BASE]).toEqual([30_000, 31_000]);
    expect(() => parseConfig({ WARDEN_VERIFY_PORT_BASE: '80' }, 'bench')).toThrow(
      /WARDEN_VERIFY_PORT_BASE="80".*example: WARDEN_VERIFY_PORT_BASE=21000/,
    );
  });

  it("keeps every program's variables in the full schema; worker and dashboard share only the base and the analysis", () => {
    const all = new Set(Object.keys(PROGRAM_SCHEMAS.all.shape));
    for (const [program, schema] of Object.entries(PROGRAM_SCHEMAS)) {
      for (const name of Object.keys(schema.shape)) expect(all.has(name), `${program}: ${name}`).toBe(true);
    }
    const dashboard = new Set(Object.keys(PROGRAM_SCHEMAS.dashboard.shape));
    const workerOnly = Object.keys(PROGRAM_SCHEMAS.worker.shape).filter((n) => !(n in PROGRAM_SCHEMAS.base.shape));
    // The worker's alerts judge groups by the dashboard's statuses, so both read the analysis settings; the
    // worker writes and redrives the dead-letter topic the dashboard browses and requests redrives of.
    expect(workerOnly.filter((name) => dashboard.has(name)).sort()).toEqual([
      'ADVISOR_CLIENT_SETTINGS',
      'ADVISOR_RATE_WINDOW_MS',
      'ADVISOR_TARGET_CATCH_UP_SEC',
      'REDRIVE_LEASE_MS',
      'REDRIVE_RATE_PER_SEC',
      'TIME_LAG_OBJECTIVE_MS',
      'WARDEN_DLQ_TOPIC',
    ]);
  });
});
