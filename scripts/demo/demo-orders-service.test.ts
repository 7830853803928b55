import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ORDERS_SERVICE,
  ORDERS_SERVICE_NODE_ARGS,
  ordersServiceDatabaseUrl,
  ordersServiceEnv,
} from './demo-orders-service';

const ROOT = path.resolve(__dirname, '..', '..');

const settings = {
  kafkaBrokers: ['127.0.0.1:9092', '127.0.0.1:9094'],
  secured: false,
  wardenDatabaseUrl: 'postgresql://postgres:secret@db:5432/warden?sslmode=disable',
  controlTopicPrefix: 'warden-control',
  controlSigningKey: undefined,
  port: 9466,
  tsconfigPath: '/repo/tsconfig.json',
};

describe("the demo's orders service", () => {
  it('gets a database of its own beside Warden’s, on the same server, with the same user and options', () => {
    expect(ordersServiceDatabaseUrl(settings.wardenDatabaseUrl)).toBe(
      'postgresql://postgres:secret@db:5432/warden_orders_service?sslmode=disable',
    );
  });

  it('gets only its own variables: its topics, group, database, the control prefix and its port', () => {
    const result = ordersServiceEnv(settings);
    if (!('env' in result)) throw new Error(`skipped: ${result.skipped}`);
    expect(result.env).toMatchObject({
      KAFKA_BROKERS: '127.0.0.1:9092,127.0.0.1:9094',
      DATABASE_URL: 'postgresql://postgres:secret@db:5432/warden_orders_service?sslmode=disable',
      ORDERS_TOPIC: 'orders',
      RESULTS_TOPIC: 'orders.results',
      GROUP_ID: 'orders-service',
      CONTROL_TOPIC_PREFIX: 'warden-control',
      PORT: '9466',
      TSX_TSCONFIG_PATH: '/repo/tsconfig.json',
    });
    expect(Object.keys(result.env).sort()).toEqual(
      [
        'CONTROL_TOPIC_PREFIX',
        'DATABASE_URL',
        'GROUP_ID',
        'HOME',
        'KAFKAJS_NO_PARTITIONER_WARNING',
        'KAFKA_BROKERS',
        'ORDERS_TOPIC',
        'PATH',
        'PORT',
        'RESULTS_TOPIC',
        'TSX_TSCONFIG_PATH',
      ].sort(),
    );
  });

  it("applies only commands Warden signed when Warden's worker signs them", () => {
    const key = 'k'.repeat(64);
    const result = ordersServiceEnv({ ...settings, controlSigningKey: key, controlTopicPrefix: 'ops-control' });
    expect('env' in result && result.env).toMatchObject({
      CONTROL_SIGNING_KEY: key,
      CONTROL_TOPIC_PREFIX: 'ops-control',
    });
  });

  it('is left out, saying why, when the brokers need TLS or SASL (the example connects in plain text)', () => {
    expect(ordersServiceEnv({ ...settings, secured: true })).toEqual({
      skipped: expect.stringMatching(/TLS or SASL.*plain text only/),
    });
  });

  it("runs from its sources through tsx, whose tsconfig (the repository's) maps @warden/consumer to the package's source", () => {
    const [, loader, entry] = ORDERS_SERVICE_NODE_ARGS;
    expect(loader).toBe('tsx');
    expect(require.resolve(loader!, { paths: [ROOT] })).toContain(`${path.sep}node_modules${path.sep}tsx${path.sep}`);
    expect(existsSync(path.join(ROOT, entry!))).toBe(true);
    const tsconfig = JSON.parse(readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8')) as {
      compilerOptions: { paths: Record<string, string[]> };
    };
    const [source] = tsconfig.compilerOptions.paths['@warden/consumer'] ?? [];
    expect(existsSync(path.join(ROOT, source ?? 'missing'))).toBe(true);
    expect(ORDERS_SERVICE.partitions).toBe(6);
  });
});
