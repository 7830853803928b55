import { describe, expect, it } from 'vitest';
import { ConfigError } from '../lib/config/program-config';
import { workerConfig } from './config';

const parse = workerConfig.parse;

describe("the worker's configuration", () => {
  it('parses booleans, numbers and patterns, with the defaults', () => {
    expect(parse({})).toMatchObject({ WARDEN_COMMIT_METADATA: true, SAMPLER_GROUP_INCLUDE: null, WORKER_PORT: 9464 });
    const config = parse({ WARDEN_COMMIT_METADATA: 'false', WORKER_PORT: '8080', SAMPLER_GROUP_INCLUDE: '^orders-' });
    expect(config.WARDEN_COMMIT_METADATA).toBe(false);
    expect(config.WORKER_PORT).toBe(8080);
    expect(config.SAMPLER_GROUP_INCLUDE?.test('orders-eu')).toBe(true);
  });

  it("takes a consumer group session within the broker's default bounds, and names them when refused", () => {
    expect(parse({}).WARDEN_SESSION_TIMEOUT_MS).toBe(30_000);
    expect(parse({ WARDEN_SESSION_TIMEOUT_MS: '6000' }).WARDEN_SESSION_TIMEOUT_MS).toBe(6_000);
    expect(() => parse({ WARDEN_SESSION_TIMEOUT_MS: '5999' })).toThrow(
      /WARDEN_SESSION_TIMEOUT_MS="5999": must be at least 6000 \(the broker default group\.min\.session\.timeout\.ms\)/,
    );
    expect(() => parse({ WARDEN_SESSION_TIMEOUT_MS: '1800001' })).toThrow(
      /must be at most 1800000 \(the broker default group\.max\.session\.timeout\.ms\)/,
    );
  });

  it('names every bad variable, its value, the problem and an example', () => {
    let error: unknown;
    try {
      parse({ KAFKA_BROKERS: 'nohost', WORKER_PORT: '70000', SAMPLER_GROUP_EXCLUDE: '(', WARDEN_ORDERING: 'random' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(4);
    expect(problems.find((p) => p.startsWith('WORKER_PORT="70000"'))).toMatch(/example: WORKER_PORT=9464/);
    expect(problems.find((p) => p.startsWith('SAMPLER_GROUP_EXCLUDE="("'))).toMatch(/regular expression/);
    expect(problems.find((p) => p.startsWith('WARDEN_ORDERING="random"'))).toMatch(/partition.*key.*unordered/);
  });

  it('reads the commit source: auto by default, one of three, anything else names the variable', () => {
    expect(parse({}).SAMPLER_COMMIT_SOURCE).toBe('auto');
    expect(parse({ SAMPLER_COMMIT_SOURCE: 'sampled' }).SAMPLER_COMMIT_SOURCE).toBe('sampled');
    expect(() => parse({ SAMPLER_COMMIT_SOURCE: 'topic' })).toThrow(
      /SAMPLER_COMMIT_SOURCE="topic".*auto, offsets-topic or sampled/,
    );
  });

  it('reads the sampler settings: defaults, 0 turns exact time lag off, a one-point window is refused', () => {
    expect(parse({})).toMatchObject({
      SAMPLER_EXACT_TIME_LAG_INTERVAL_MS: 15_000,
      SAMPLER_EXACT_TIME_LAG_MAX_PARTITIONS: 200,
      SAMPLER_TIME_LAG_POINTS: 60,
    });
    expect(parse({ SAMPLER_EXACT_TIME_LAG_MAX_PARTITIONS: '0' }).SAMPLER_EXACT_TIME_LAG_MAX_PARTITIONS).toBe(0);
    expect(() => parse({ SAMPLER_TIME_LAG_POINTS: '1' })).toThrow(
      /SAMPLER_TIME_LAG_POINTS="1".*example: SAMPLER_TIME_LAG_POINTS=60/,
    );
  });

  it('reads the control plane: a topic-name prefix, an optional signing key never quoted, the state interval', () => {
    const defaults = parse({});
    expect(defaults).toMatchObject({
      WARDEN_CONTROL_TOPIC_PREFIX: 'warden-control',
      WARDEN_CONTROL_STATE_INTERVAL_MS: 5_000,
    });
    expect(defaults.WARDEN_CONTROL_SIGNING_KEY).toBeUndefined();
    const key = 'k'.repeat(32);
    const signed = parse({ WARDEN_CONTROL_SIGNING_KEY: key });
    expect(signed.WARDEN_CONTROL_SIGNING_KEY?.reveal()).toBe(key);
    expect(JSON.stringify(signed)).not.toContain(key);
    expect(() => parse({ WARDEN_CONTROL_SIGNING_KEY: 'short-but-secret' })).toThrow(
      /WARDEN_CONTROL_SIGNING_KEY=\(set; value not shown\): must be at least 32/,
    );
    expect(() => parse({ WARDEN_CONTROL_SIGNING_KEY: 'short-but-secret' })).not.toThrow(/short-but/);
    expect(() => parse({ WARDEN_CONTROL_TOPIC_PREFIX: 'has space' })).toThrow(
      /WARDEN_CONTROL_TOPIC_PREFIX="has space": must be a Kafka topic-name prefix/,
    );
    expect(() => parse({ WARDEN_CONTROL_STATE_INTERVAL_MS: '50' })).toThrow(/WARDEN_CONTROL_STATE_INTERVAL_MS="50"/);
  });

  it('reads the alert settings and receivers; a malformed one stops start-up naming the variable, path and example', () => {
    const defaults = parse({});
    expect(defaults.ALERT_SETTINGS.exact.size + defaults.ALERT_SETTINGS.patterns.length).toBe(0);
    expect(defaults.ALERT_WEBHOOK_URL).toBeUndefined();
    const configured = parse({
      ALERT_SETTINGS: '{"orders":{"group-status":{"forMs":0}}}',
      ALERT_WEBHOOK_URL: 'https://alerts.example.com/hook',
      ALERT_SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T000/B000/XXXX',
    });
    expect(configured.ALERT_SETTINGS.exact.get('orders')).toEqual({ 'group-status': { forMs: 0 } });
    expect(configured.ALERT_SLACK_WEBHOOK_URL?.reveal()).toBe('https://hooks.slack.com/services/T000/B000/XXXX');
    expect(() => parse({ ALERT_SETTINGS: '{"orders":{"group-status":{"forMs":-5}}}' })).toThrow(
      /ALERT_SETTINGS=.*"orders"\."group-status"\.forMs must be a duration in ms.*example: ALERT_SETTINGS=\{/,
    );
    expect(() => parse({ ALERT_SETTINGS: '{"orders":{"lag":{}}}' })).toThrow(
      /ALERT_SETTINGS=.*unknown condition "lag".*example: ALERT_SETTINGS=/,
    );
    expect(() => parse({ ALERT_SETTINGS: '{oops' })).toThrow(/ALERT_SETTINGS="\{oops": must be JSON/);
    expect(() => parse({ ALERT_WEBHOOK_URL: 'ftp://alerts.example.com' })).toThrow(
      /ALERT_WEBHOOK_URL="ftp:\/\/alerts.example.com": must be an http:\/\/ or https:\/\/ URL \(example: ALERT_WEBHOOK_URL=https/,
    );
    let message = '';
    try {
      parse({ ALERT_SLACK_WEBHOOK_URL: 'slack://T000/secret-token' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/ALERT_SLACK_WEBHOOK_URL=\(set; value not shown\): must be an http/);
    expect(message).not.toContain('secret-token');
  });

  it("starts whatever the demo's, the dashboard's, the bench's or npm test's variables say", () => {
    const others = {
      DEMO_SCENARIO: 'chaos',
      DEMO_STORY_SPEED: '100',
      WARDEN_SESSION_SECRET: 'short',
      UI_PORT: 'not-a-port',
      WARDEN_BENCH_PORT_BASE: '80',
      WARDEN_TEST_PORT_BASE: '80',
      WARDEN_FUZZ_SEED: '-1',
      WARDEN_KAFKA_HOME: '',
    };
    const config = parse(others);
    expect(config.WORKER_PORT).toBe(9464);
    expect(Object.keys(config)).not.toContain('DEMO_SCENARIO');
    expect(Object.keys(config)).not.toContain('UI_PORT');
    expect(Object.keys(config)).not.toContain('WARDEN_TEST_PORT_BASE');
  });
});
