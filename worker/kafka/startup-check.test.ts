import { describe, expect, it } from 'vitest';
import { workerConfig } from '../config';
import type { StartupSecurityContext } from './classify-startup-error';
import { checkKafkaAtStartup, KafkaStartupError, startupContextFrom, type StartupCheckOptions } from './startup-check';

const context: StartupSecurityContext = {
  brokers: ['k:9094'],
  tls: null,
  sasl: { mechanism: 'plain', username: 'alice' },
};
const refused = () =>
  Object.assign(new Error('Connection error: connect ECONNREFUSED'), {
    name: 'KafkaJSConnectionError',
    code: 'ECONNREFUSED',
  });
const closed = () => Object.assign(new Error('Closed connection'), { name: 'KafkaJSConnectionClosedError' });
const rejected = () =>
  Object.assign(new Error('SASL PLAIN authentication failed: Invalid username or password s3cret-pw'), {
    name: 'KafkaJSSASLAuthenticationError',
  });

/** A check on fake time: `failures` are thrown in order, then the probe succeeds. */
function harness(failures: Array<() => Error>, overrides: Partial<StartupCheckOptions> = {}) {
  let clock = 0;
  let attempts = 0;
  const warnings: string[] = [];
  const run = checkKafkaAtStartup({
    client: { brokers: ['k:9094'], clientId: 'test' },
    context,
    logger: { warn: (_fields, message) => warnings.push(message) },
    secrets: ['s3cret-pw'],
    now: () => clock,
    sleep: async (ms) => {
      clock += ms;
    },
    probe: async () => {
      const failure = failures[attempts++];
      if (failure) throw failure();
      return { clusterId: 'c1', brokers: 1 };
    },
    ...overrides,
  });
  return { run, attempts: () => attempts, warnings, clock: () => clock };
}

describe('checkKafkaAtStartup', () => {
  it('fails at once, without retrying, when Kafka rejects the credentials, and redacts the password', async () => {
    const h = harness([rejected, rejected]);
    const error = await h.run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KafkaStartupError);
    expect((error as Error).message).toMatch(/^Kafka rejected the SASL credentials/);
    expect((error as Error).message).not.toContain('s3cret-pw');
    expect((error as KafkaStartupError).settings).toContain('KAFKA_SASL_PASSWORD');
    expect(h.attempts()).toBe(1);
    expect(h.warnings).toEqual([]);
  });

  it('gives a closed connection three attempts, with a warning before each retry', async () => {
    const h = harness([closed, closed, closed, closed]);
    await expect(h.run).rejects.toThrow(/closed the connection during the start-up check/);
    expect(h.attempts()).toBe(3);
    expect(h.warnings).toHaveLength(2);
    expect(h.warnings[0]).toMatch(/^Kafka start-up check failed, retrying: Kafka at k:9094 closed the connection/);
  });

  it('waits for a cluster that is not up yet, and succeeds when it comes up', async () => {
    const h = harness([refused, refused, refused]);
    await expect(h.run).resolves.toEqual({ clusterId: 'c1', brokers: 1 });
    expect(h.attempts()).toBe(4);
    expect(h.warnings).toHaveLength(3);
  });

  it('gives up on an unreachable cluster at the deadline, naming KAFKA_BROKERS', async () => {
    const h = harness(
      Array.from({ length: 100 }, () => refused),
      { deadlineMs: 10_000 },
    );
    await expect(h.run).rejects.toThrow(
      'cannot reach Kafka at k:9094 (ECONNREFUSED); check KAFKA_BROKERS and that the cluster is up',
    );
    expect(h.clock()).toBeLessThanOrEqual(10_000);
    expect(h.attempts()).toBeGreaterThan(3);
  });
});

describe('startupContextFrom', () => {
  it('carries brokers, file paths, mechanism and user, but no password', () => {
    const config = workerConfig.parse({
      KAFKA_BROKERS: 'k:9094',
      KAFKA_SASL_MECHANISM: 'scram-sha-256',
      KAFKA_SASL_USERNAME: 'alice',
      KAFKA_SASL_PASSWORD: 's3cret-pw',
    });
    const result = startupContextFrom(config);
    expect(result).toEqual({ brokers: ['k:9094'], tls: null, sasl: { mechanism: 'scram-sha-256', username: 'alice' } });
    expect(JSON.stringify(result)).not.toContain('s3cret-pw');
  });
});
