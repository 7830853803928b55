import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaPart } from '../config/base';
import { ConfigError, partsConfig } from '../config/program-config';
import { createThrowawayPki, type ThrowawayPki } from '../../test-support/throwaway-ca';
import { clusterNamed, parseClusterList } from './cluster-settings';

/** The Kafka part alone: what every program that reads Kafka parses. */
const kafkaConfig = partsConfig(kafkaPart);

let dir: string;
let pki: ThrowawayPki;
let notPem: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'warden-clusters-'));
  pki = createThrowawayPki(dir);
  notPem = path.join(dir, 'not-pem.txt');
  writeFileSync(notPem, 'hello');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The ConfigError's problems of `env`, or a failure when it parses. */
function problemsOf(env: Record<string, string>): string[] {
  try {
    kafkaConfig.parse(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

const clusters = (value: unknown) => JSON.stringify(value);

describe('WARDEN_CLUSTERS', () => {
  it('is only `default` when unset: the single-cluster variables keep working', () => {
    const config = kafkaConfig.parse({ KAFKA_BROKERS: 'a:1,b:2' });
    expect(config.clusters).toEqual([
      { name: 'default', brokers: ['a:1', 'b:2'], security: { tls: null, sasl: null } },
    ]);
    expect(kafkaConfig.parse({}).clusters.map((c) => [c.name, c.brokers])).toEqual([['default', ['127.0.0.1:9092']]]);
  });

  it('adds each named cluster after `default`, with its brokers, TLS files read and SASL', () => {
    const config = kafkaConfig.parse({
      WARDEN_CLUSTERS: clusters([
        { name: 'staging', brokers: 'kafka-s:9092' },
        {
          name: 'prod-eu',
          brokers: ['kafka-1.eu:9093', 'kafka-2.eu:9093'],
          ssl: true,
          sslCaFile: pki.caFile,
          sslCertFile: pki.clientCertFile,
          sslKeyFile: pki.clientKeyFile,
          saslMechanism: 'scram-sha-512',
          saslUsername: 'warden',
          saslPassword: 'pw',
        },
      ]),
    });
    expect(config.clusters.map((c) => c.name)).toEqual(['default', 'staging', 'prod-eu']);
    const eu = clusterNamed(config.clusters, 'prod-eu');
    expect(eu.brokers).toEqual(['kafka-1.eu:9093', 'kafka-2.eu:9093']);
    expect(eu.security.tls?.ca?.[0]).toContain('-----BEGIN CERTIFICATE-----');
    expect(eu.security.tls?.cert).toContain('-----BEGIN CERTIFICATE-----');
    expect(eu.security.sasl?.mechanism).toBe('scram-sha-512');
    expect(eu.security.sasl?.password.reveal()).toBe('pw');
    expect(clusterNamed(config.clusters, 'staging').security).toEqual({ tls: null, sasl: null });
    expect(() => clusterNamed(config.clusters, 'nope')).toThrow(
      'no cluster "nope" is configured (configured: default, staging, prod-eu)',
    );
  });

  it('stops start-up on a duplicate name, naming the cluster and the setting', () => {
    const problems = problemsOf({
      WARDEN_CLUSTERS: clusters([
        { name: 'staging', brokers: 'a:1' },
        { name: 'staging', brokers: 'b:1' },
        { name: 'default', brokers: 'c:1' },
      ]),
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('WARDEN_CLUSTERS=(set; value not shown)');
    expect(problems[0]).toContain('cluster "staging" name: is used twice (cluster names must be unique)');
    expect(problems[0]).toContain('cluster "default" name: is taken: "default" is the cluster of KAFKA_BROKERS');
    expect(problems[0]).toContain('(example: WARDEN_CLUSTERS=[{"name":"prod-eu"');
  });

  it('refuses a name that is not URL-safe', () => {
    for (const name of ['Prod EU', 'a/b', '-x', 'über', '', 'x'.repeat(64)]) {
      expect(() => parseClusterList(clusters([{ name, brokers: 'a:1' }]))).toThrow(
        `cluster "${name}" name: must be URL-safe`,
      );
    }
    expect(parseClusterList(clusters([{ name: 'eu-1_b', brokers: 'a:1' }]))[0]?.name).toBe('eu-1_b');
  });

  it('refuses missing or malformed brokers', () => {
    expect(() => parseClusterList(clusters([{ name: 'staging' }]))).toThrow('cluster "staging" brokers: is required');
    expect(() => parseClusterList(clusters([{ name: 'staging', brokers: ' ' }]))).toThrow(
      'cluster "staging" brokers: is required',
    );
    expect(() => parseClusterList(clusters([{ name: 'staging', brokers: 'nohost' }]))).toThrow(
      'cluster "staging" brokers: "nohost" is not host:port',
    );
  });

  it('refuses TLS files that do not parse or cannot be read, naming the cluster and the key', () => {
    expect(() => parseClusterList(clusters([{ name: 'eu', brokers: 'a:1', ssl: true, sslCaFile: notPem }]))).toThrow(
      'cluster "eu" sslCaFile: holds no PEM certificate',
    );
    expect(() =>
      parseClusterList(clusters([{ name: 'eu', brokers: 'a:1', ssl: true, sslCaFile: path.join(dir, 'missing.pem') }])),
    ).toThrow('cluster "eu" sslCaFile: cannot read the file (ENOENT)');
    expect(() =>
      parseClusterList(
        clusters([{ name: 'eu', brokers: 'a:1', ssl: true, sslCertFile: pki.clientCertFile, sslKeyFile: notPem }]),
      ),
    ).toThrow('cluster "eu" sslKeyFile: holds no PEM private key');
    expect(() => parseClusterList(clusters([{ name: 'eu', brokers: 'a:1', sslCaFile: pki.caFile }]))).toThrow(
      'cluster "eu" sslCaFile: is set but ssl is not true (set ssl=true to connect with TLS)',
    );
  });

  it('refuses incomplete SASL, unknown keys, bad JSON and a non-array, never quoting a password', () => {
    let message = '';
    try {
      parseClusterList(clusters([{ name: 'eu', brokers: 'a:1', saslMechanism: 'plain', saslPassword: 'hunter2' }]));
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe('cluster "eu" saslUsername: is required when saslMechanism is set');
    expect(() => parseClusterList(clusters([{ name: 'eu', brokers: 'a:1', sslCa: 'x' }]))).toThrow(
      /cluster "eu" \(entry\): Unrecognized key: "sslCa"/,
    );
    expect(() => parseClusterList(clusters([{ brokers: 'a:1' }]))).toThrow('entry 0 name: is required');
    expect(() => parseClusterList(clusters([{ name: 'eu', brokers: 'a:1', ssl: 'yes' }]))).toThrow(
      'cluster "eu" ssl: must be true or false',
    );
    expect(() => parseClusterList('{"eu":{}}')).toThrow('must be a JSON array of clusters');
    expect(() => parseClusterList('[')).toThrow('is not JSON');
  });
});
