import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, readConfig } from './config';

const minimal = { KAFKA_BROKERS: 'kafka-1:9092', DATABASE_URL: 'postgresql://orders@db:5432/orders' };

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    readConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.problems;
  }
  assert.fail('expected a ConfigError');
}

describe('readConfig', () => {
  it('applies the defaults around the two required variables', () => {
    assert.deepEqual(readConfig(minimal), {
      kafkaBrokers: ['kafka-1:9092'],
      ordersTopic: 'orders',
      resultsTopic: 'orders.results',
      groupId: 'orders-service',
      databaseUrl: 'postgresql://orders@db:5432/orders',
      controlTopicPrefix: 'warden-control',
      controlSigningKey: null,
      port: 8080,
    });
  });

  it('reads every variable it is given', () => {
    const config = readConfig({
      ...minimal,
      KAFKA_BROKERS: 'a:9092, b:9093',
      ORDERS_TOPIC: 'shop.orders',
      RESULTS_TOPIC: 'shop.orders.results',
      GROUP_ID: 'orders-v2',
      CONTROL_TOPIC_PREFIX: 'ops-control',
      CONTROL_SIGNING_KEY: 'k'.repeat(32),
      PORT: '9100',
    });
    assert.deepEqual(config.kafkaBrokers, ['a:9092', 'b:9093']);
    assert.equal(config.ordersTopic, 'shop.orders');
    assert.equal(config.resultsTopic, 'shop.orders.results');
    assert.equal(config.groupId, 'orders-v2');
    assert.equal(config.controlTopicPrefix, 'ops-control');
    assert.equal(config.controlSigningKey, 'k'.repeat(32));
    assert.equal(config.port, 9100);
  });

  it('names every missing or invalid variable at once', () => {
    const problems = problemsOf({
      KAFKA_BROKERS: 'kafka-1',
      ORDERS_TOPIC: 'orders with spaces',
      RESULTS_TOPIC: 'orders with spaces',
      CONTROL_SIGNING_KEY: ' ',
      PORT: '70000',
    });
    const named = (variable: string) => problems.some((problem) => problem.startsWith(variable));
    for (const variable of [
      'KAFKA_BROKERS',
      'ORDERS_TOPIC',
      'RESULTS_TOPIC',
      'DATABASE_URL',
      'CONTROL_SIGNING_KEY',
      'PORT',
    ])
      assert.ok(named(variable), `${variable} is named in ${JSON.stringify(problems)}`);
    assert.equal(named('GROUP_ID'), false);
  });

  it('refuses a database URL that is not a Postgres one and a prefix too long for its topics', () => {
    const problems = problemsOf({
      ...minimal,
      DATABASE_URL: 'mysql://db/orders',
      CONTROL_TOPIC_PREFIX: 'p'.repeat(241),
    });
    assert.equal(problems.length, 2);
    assert.match(problems[0]!, /^DATABASE_URL/);
    assert.match(problems[1]!, /^CONTROL_TOPIC_PREFIX/);
  });

  it('refuses the same topic for orders and results', () => {
    assert.deepEqual(problemsOf({ ...minimal, RESULTS_TOPIC: 'orders' }), [
      'RESULTS_TOPIC must differ from ORDERS_TOPIC (both "orders")',
    ]);
  });
});
