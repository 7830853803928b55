import { spawn } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childProcessEnv, ConfigError } from '../../lib/config/program-config';
import { loadTestConfig } from '../../test-support/test-config';
import { workerConfig, type WorkerConfig } from '../config';
import type { Database } from '../../lib/db';
import { startLocalBroker, stopLocalBroker, type LocalBrokerOptions } from '../../scripts/lib/broker';
import { WorkerProcess } from '../../scripts/lib/worker-process';
import { testDatabase } from '../../test-support/database';
import { eventually, uniqueName } from '../../test-support/integration';
import { startPipelineConsumer, upsertEvent } from '../../test-support/pipeline-consumer';
import { linkInstalledJars } from '../../test-support/broker-home';
import { createThrowawayPki, type ThrowawayPki } from '../../test-support/throwaway-ca';
import { ClusterReader } from '../../lib/kafka/cluster-reader';
import { createKafka, kafkaSecurityFrom } from '../../lib/kafka/client';
import { checkKafkaAtStartup, KafkaStartupError, startupContextFrom } from './startup-check';
import { ensureTopics } from './topics';

// TLS and SASL for real: this file starts its own broker (own home, own ports) with a SASL_PLAINTEXT, an
// SSL, a mutual-TLS and a SASL_SSL listener, SCRAM users written by kafka-storage format, and a CA, broker
// and client certificates generated here. Each round trip goes through Warden's own path: the config parsed
// from an env map, the start-up check, createKafka with kafkaSecurityFrom, the document pipeline on a
// WardenConsumer (consume, store, publish results, commit), lag from admin offsets and from the sampler's
// ClusterReader. The negative cases check the start-up errors name the setting and never show a secret.

const testConfig = loadTestConfig();
const base = testConfig.WARDEN_TEST_PORT_BASE;
// base+92/93 (npm test's broker), +100 (UI) and +464.. (workers) belong to others.
const PORTS = {
  plaintext: base + 110,
  controller: base + 111,
  sasl: base + 112,
  ssl: base + 113,
  mtls: base + 114,
  saslSsl: base + 115,
  worker: base + 116,
};
const USERS = { alice: 'alice-Secret-4711', bob: 'bob-Secret-0815' };

let dir: string;
let encryptedClientKeyFile: string;
const CLIENT_KEY_PASSWORD = 'it-client-key-password';
let pki: ThrowawayPki;
let broker: LocalBrokerOptions;
let db: Database;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'warden-security-'));
  pki = createThrowawayPki(path.join(dir, 'pki'));
  // The client key again, encrypted (PKCS#8, AES-256-CBC) as a key store's export usually is.
  encryptedClientKeyFile = path.join(dir, 'pki', 'client-encrypted.key');
  const clientKey = createPrivateKey(readFileSync(pki.clientKeyFile, 'utf8'));
  writeFileSync(
    encryptedClientKeyFile,
    clientKey.export({ format: 'pem', type: 'pkcs8', cipher: 'aes-256-cbc', passphrase: CLIENT_KEY_PASSWORD }),
  );
  const home = mkdirAndReturn(path.join(dir, 'kafka'));
  linkInstalledJars(home, testConfig.WARDEN_KAFKA_HOME);
  broker = {
    port: PORTS.plaintext,
    controllerPort: PORTS.controller,
    home,
    fresh: true,
    security: {
      saslPort: PORTS.sasl,
      sslPort: PORTS.ssl,
      mtlsPort: PORTS.mtls,
      saslSslPort: PORTS.saslSsl,
      users: USERS,
      certFile: pki.brokerCertFile,
      keyFile: pki.brokerKeyFile,
      caFile: pki.caFile,
    },
  };
  await startLocalBroker(broker);
  db = testDatabase();
}, 180_000);

afterAll(async () => {
  await db?.$disconnect();
  if (broker) await stopLocalBroker(broker).catch((error: Error) => console.error(error.message));
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

function mkdirAndReturn(p: string): string {
  mkdirSync(p, { recursive: true });
  return p;
}

const sasl = (port: number, mechanism: string, user: keyof typeof USERS, password: string = USERS[user]) => ({
  KAFKA_BROKERS: `127.0.0.1:${port}`,
  KAFKA_SASL_MECHANISM: mechanism,
  KAFKA_SASL_USERNAME: user,
  KAFKA_SASL_PASSWORD: password,
});
const tls = () => ({ KAFKA_BROKERS: `127.0.0.1:${PORTS.ssl}`, KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: pki.caFile });
const mtls = () => ({
  KAFKA_BROKERS: `127.0.0.1:${PORTS.mtls}`,
  KAFKA_SSL: 'true',
  KAFKA_SSL_CA_FILE: pki.caFile,
  KAFKA_SSL_CERT_FILE: pki.clientCertFile,
  KAFKA_SSL_KEY_FILE: pki.clientKeyFile,
});

/** The worker's start-up check on `config`, with a short deadline (nothing here should need retries). */
function startupCheck(config: WorkerConfig) {
  return checkKafkaAtStartup({
    client: { brokers: config.kafkaBrokers, clientId: 'security-it', ...kafkaSecurityFrom(config) },
    context: startupContextFrom(config),
    deadlineMs: 10_000,
    secrets: config.kafkaSecurity.sasl ? [config.kafkaSecurity.sasl.password.reveal()] : [],
  });
}

/** Lag per partition from the admin API: log end offset minus the group's committed offset. */
async function adminLag(
  admin: ReturnType<ReturnType<typeof createKafka>['admin']>,
  groupId: string,
  topic: string,
): Promise<number> {
  const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
  const ends = await admin.fetchTopicOffsets(topic);
  return ends.reduce((sum, end) => {
    const offset = Number(committed?.partitions.find((p) => p.partition === end.partition)?.offset ?? '-1');
    return sum + Number(end.high) - Math.max(0, offset);
  }, 0);
}

/** Produce, consume through the document pipeline, commit, produce more, and read the lag both ways. */
async function roundTrip(env: Record<string, string>): Promise<void> {
  const config = workerConfig.parse(env);
  expect(await startupCheck(config)).toMatchObject({ brokers: 1 });
  const kafka = createKafka({
    brokers: config.kafkaBrokers,
    clientId: 'security-it',
    logLevel: 'nothing',
    ...kafkaSecurityFrom(config),
  });
  const prefix = uniqueName('sec');
  const input = `${prefix}-in`;
  const results = `${prefix}-results`;
  const groupId = `${prefix}-group`;
  const admin = kafka.admin();
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  const reader = new ClusterReader({ kafka, ownGroupId: groupId, include: new RegExp(`^${groupId}$`), exclude: null });
  await admin.connect();
  await producer.connect();
  try {
    await ensureTopics(admin, [
      { topic: input, numPartitions: 2 },
      { topic: results, numPartitions: 1 },
    ]);
    const send = (from: number, count: number) =>
      producer.send({
        topic: input,
        acks: -1,
        messages: Array.from({ length: count }, (_, i) => ({
          key: `k${from + i}`,
          value: upsertEvent(from + i, { businessId: `${prefix}-${from + i}` }),
        })),
      });
    await send(0, 6);

    const pipeline = await startPipelineConsumer({ kafka, db, groupId, topics: [input], resultsTopic: results });
    try {
      await eventually('six results published and every input record committed', async () => {
        const published = (await admin.fetchTopicOffsets(results)).reduce((sum, p) => sum + Number(p.high), 0);
        return published === 6 && (await adminLag(admin, groupId, input)) === 0 ? true : undefined;
      });
    } finally {
      await pipeline.stop();
    }
    expect(await db.storedDocument.count({ where: { sourceTopic: input } })).toBe(6);

    await send(6, 4);
    expect(await adminLag(admin, groupId, input)).toBe(4);
    const observation = await reader.readCluster();
    const group = observation.groups.find((g) => g.groupId === groupId);
    const ends = observation.watermarks.find((w) => w.topic === input)?.partitions ?? [];
    const committed = group?.committed.find((t) => t.topic === input)?.partitions ?? [];
    const samplerLag = ends.reduce(
      (sum, end) => sum + Number(end.high) - Number(committed.find((c) => c.partition === end.partition)?.offset ?? 0),
      0,
    );
    expect(samplerLag).toBe(4);
  } finally {
    await reader.disconnect();
    await producer.disconnect();
    await admin.disconnect();
  }
}

describe('produce, consume and lag through each security listener', () => {
  it('SASL PLAIN', () => roundTrip(sasl(PORTS.sasl, 'plain', 'alice')));
  it('SASL SCRAM-SHA-256', () => roundTrip(sasl(PORTS.sasl, 'scram-sha-256', 'alice')));
  it('SASL SCRAM-SHA-512', () => roundTrip(sasl(PORTS.sasl, 'SCRAM-SHA-512', 'bob')));
  it('TLS, the broker verified against KAFKA_SSL_CA_FILE', () => roundTrip(tls()));
  it('mutual TLS with a client certificate', () => roundTrip(mtls()));
  it('mutual TLS with an encrypted client key and KAFKA_SSL_KEY_PASSWORD', () =>
    roundTrip({ ...mtls(), KAFKA_SSL_KEY_FILE: encryptedClientKeyFile, KAFKA_SSL_KEY_PASSWORD: CLIENT_KEY_PASSWORD }));
});

describe('the worker process on SASL_SSL with SCRAM-SHA-512', () => {
  it('starts, stores and answers records, samples its own lag, and drains on SIGTERM', async () => {
    const prefix = uniqueName('sec-worker');
    const env = {
      ...sasl(PORTS.saslSsl, 'scram-sha-512', 'alice'),
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: pki.caFile,
      WARDEN_GROUP_ID: `${prefix}-group`,
      WARDEN_INPUT_TOPIC: `${prefix}-in`,
      WARDEN_RESULTS_TOPIC: `${prefix}-results`,
      WARDEN_DLQ_TOPIC: `${prefix}-dlq`,
      WARDEN_INPUT_PARTITIONS: '2',
      WORKER_PORT: String(PORTS.worker),
      SAMPLER_GROUP_INCLUDE: `^${prefix}-group$`,
      SAMPLE_INTERVAL_MS: '1000',
    };
    const config = workerConfig.parse(env);
    const kafka = createKafka({
      brokers: config.kafkaBrokers,
      clientId: 'security-it',
      logLevel: 'nothing',
      ...kafkaSecurityFrom(config),
    });
    const worker = new WorkerProcess(env);
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    try {
      await worker.start(); // resolves once /readyz is green: the consumer fetches over SASL_SSL
      await producer.connect();
      await producer.send({
        topic: env.WARDEN_INPUT_TOPIC,
        acks: -1,
        messages: Array.from({ length: 5 }, (_, i) => ({
          key: `k${i}`,
          value: upsertEvent(i, { businessId: `${prefix}-${i}` }),
        })),
      });
      await eventually('five records stored by the worker', async () =>
        (await db.storedDocument.count({ where: { sourceTopic: env.WARDEN_INPUT_TOPIC } })) === 5 ? true : undefined,
      );
      await eventually('the sampler wrote a lag sample of the group', async () =>
        (await db.lagSample.count({ where: { groupId: env.WARDEN_GROUP_ID } })) > 0 ? true : undefined,
      );
      expect(await worker.stop('SIGTERM')).toBe(0);
      expect(worker.output).toContain('"sasl":"scram-sha-512"');
      expect(worker.output).not.toContain(USERS.alice);
    } finally {
      await worker.stop('SIGKILL');
      await producer.disconnect();
    }
  });
});

describe('clear start-up errors', () => {
  const rejection = async (env: Record<string, string>) => {
    const started = Date.now();
    const error = await startupCheck(workerConfig.parse(env)).then(
      () => new Error('the start-up check passed'),
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(KafkaStartupError);
    // At once: never a retry loop on a configuration problem.
    expect(Date.now() - started).toBeLessThan(8_000);
    return error.message;
  };

  it('a wrong SCRAM password names the credentials and the mechanism, without the password', async () => {
    const message = await rejection(sasl(PORTS.sasl, 'scram-sha-256', 'alice', 'not-the-Password-42'));
    expect(message).toMatch(
      /^Kafka rejected the SASL credentials \(KAFKA_SASL_USERNAME\/KAFKA_SASL_PASSWORD, mechanism scram-sha-256\) of user "alice"/,
    );
    expect(message).not.toContain('not-the-Password-42');
  });

  it('a wrong PLAIN password does too', async () => {
    expect(await rejection(sasl(PORTS.sasl, 'plain', 'bob', 'wrong-Password'))).toMatch(
      /^Kafka rejected the SASL credentials .*mechanism plain\) of user "bob"/,
    );
  });

  it('a broker certificate from a CA not in KAFKA_SSL_CA_FILE is not trusted', async () => {
    const message = await rejection({ ...tls(), KAFKA_SSL_CA_FILE: pki.otherCaFile });
    expect(message).toMatch(
      /^TLS handshake with 127\.0\.0\.1:\d+ failed: certificate not trusted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE: .*\); check KAFKA_SSL_CA_FILE/,
    );
  });

  it('without KAFKA_SSL_CA_FILE only the system CAs are trusted, which did not sign this broker', async () => {
    const { KAFKA_SSL_CA_FILE: _ca, ...systemTrust } = tls();
    expect(await rejection(systemTrust)).toMatch(/certificate not trusted .*KAFKA_SSL_CA_FILE is unset/);
  });

  it('the mutual-TLS listener without a client certificate asks for KAFKA_SSL_CERT_FILE', async () => {
    const { KAFKA_SSL_CERT_FILE: _c, KAFKA_SSL_KEY_FILE: _k, ...noClientCert } = mtls();
    expect(await rejection(noClientCert)).toMatch(
      /the broker requires a client certificate \(ERR_SSL_\w+\); set KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE/,
    );
  });

  it('the mutual-TLS listener refuses a client certificate its CA did not sign', async () => {
    const env = {
      ...mtls(),
      KAFKA_SSL_CA_FILE: pki.caFile,
      KAFKA_SSL_CERT_FILE: pki.otherCaFile,
      KAFKA_SSL_KEY_FILE: path.join(pki.dir, 'other-ca.key'),
    };
    expect(await rejection(env)).toMatch(/the broker refused the client certificate .*check KAFKA_SSL_CERT_FILE/);
  });

  it('SASL against the plaintext listener says the listener does not take SASL', async () => {
    expect(await rejection(sasl(PORTS.plaintext, 'scram-sha-512', 'alice'))).toMatch(
      /refused the SASL handshake \(ILLEGAL_SASL_STATE\)/,
    );
  });

  it('TLS against the plaintext listener suspects the listener', async () => {
    expect(await rejection({ ...tls(), KAFKA_BROKERS: `127.0.0.1:${PORTS.plaintext}` })).toMatch(
      /^TLS handshake with .* failed: the broker closed the connection .*KAFKA_SSL=true/,
    );
  });

  it('SASL turned on without a password is a configuration error naming KAFKA_SASL_PASSWORD', () => {
    const { KAFKA_SASL_PASSWORD: _p, ...noPassword } = sasl(PORTS.sasl, 'scram-sha-256', 'alice');
    expect(() => workerConfig.parse(noPassword)).toThrow(ConfigError);
    expect(() => workerConfig.parse(noPassword)).toThrow(
      /KAFKA_SASL_PASSWORD=missing: is required when KAFKA_SASL_MECHANISM is set/,
    );
  });

  it('the worker process exits 1 at start-up on a wrong password, saying why and never showing it', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'worker/main.ts'], {
      cwd: path.resolve(__dirname, '..', '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
      env: childProcessEnv({
        ...sasl(PORTS.sasl, 'scram-sha-512', 'bob', 'wrong-Password-99'),
        WORKER_PORT: String(PORTS.worker),
        LOG_LEVEL: 'info',
      }),
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, output).toBe(1);
    expect(output).toMatch(
      /worker failed to start: Kafka rejected the SASL credentials \(KAFKA_SASL_USERNAME\/KAFKA_SASL_PASSWORD, mechanism scram-sha-512\) of user \\"bob\\"/,
    );
    expect(output).not.toContain('wrong-Password-99');
  }, 60_000);
});
