import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AclOperationTypes,
  AclPermissionTypes,
  AclResourceTypes,
  ConfigResourceTypes,
  ResourcePatternTypes,
  type Admin,
  type Kafka,
} from 'kafkajs';
import { childProcessEnv } from '../../lib/config/program-config';
import type { Database } from '../../lib/db';
import { createKafka } from '../../lib/kafka/client';
import { ClusterReader } from '../../lib/kafka/cluster-reader';
import { retentionRisk } from '../../lib/lag/retention-risk';
import { linkInstalledJars } from '../../test-support/broker-home';
import { commitOffsets } from '../../test-support/commit-offsets';
import { testDatabase } from '../../test-support/database';
import { createTopic, eventually, uniqueName } from '../../test-support/integration';
import { loadTestConfig } from '../../test-support/test-config';
import { LagSampler } from './lag-sampler';
import { settingsFromRow } from '../../lib/groups/load-retention';
import { positionFromSample } from './topic-settings';

// A topic whose retention settings the sampler may not read, for real: this file starts a broker of its own
// that enforces ACLs (scripts/kafka/broker.sh, WARDEN_KAFKA_AUTHORIZER=1) with a SASL user for the sampler,
// allowed everything but DescribeConfigs of one topic (and, later, of the brokers). The round still succeeds,
// the readable topic gets its settings, the refused one a read_error naming the cause and no numbers, and the
// retention rule over what is stored calls its risk unknown, never safe.

const config = loadTestConfig();
const base = config.WARDEN_TEST_PORT_BASE;
// base+92/93 (npm test's broker), +100 (UI), +110..116 (security.it.ts), +464.. (workers) belong to others.
const PORTS = { plaintext: base + 120, controller: base + 121, sasl: base + 122 };
const SAMPLER_USER = { name: 'warden-sampler', password: 'sampler-Secret-2718' };
const CLUSTER = 'acl-it';
const BROKER_SCRIPT = path.resolve(__dirname, '..', '..', 'scripts', 'kafka', 'broker.sh');
const execFileAsync = promisify(execFile);

describe.runIf(config.WARDEN_KAFKA_HOME !== undefined)('retention settings the sampler may not read', () => {
  const prefix = uniqueName('acl');
  const readable = `${prefix}-readable`;
  const denied = `${prefix}-denied`;
  const groupId = `${prefix}-group`;
  let dir: string;
  let brokerEnv: NodeJS.ProcessEnv;
  let superKafka: Kafka;
  let admin: Admin;
  let db: Database;
  let sampler: LagSampler;

  const broker = (command: 'start' | 'stop') =>
    execFileAsync('bash', [BROKER_SCRIPT, command], { env: brokerEnv, maxBuffer: 1 << 20 });

  const acl = (
    resourceType: AclResourceTypes,
    resourceName: string,
    operation: AclOperationTypes,
    permissionType: AclPermissionTypes,
  ) => ({
    resourceType,
    resourceName,
    resourcePatternType: ResourcePatternTypes.LITERAL,
    principal: `User:${SAMPLER_USER.name}`,
    host: '*',
    operation,
    permissionType,
  });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'warden-retention-acl-'));
    const home = path.join(dir, 'kafka');
    mkdirSync(home);
    linkInstalledJars(home, config.WARDEN_KAFKA_HOME);
    brokerEnv = childProcessEnv({
      WARDEN_KAFKA_HOME: home,
      WARDEN_KAFKA_PORT: String(PORTS.plaintext),
      WARDEN_KAFKA_CONTROLLER_PORT: String(PORTS.controller),
      WARDEN_KAFKA_SASL_PORT: String(PORTS.sasl),
      WARDEN_KAFKA_SASL_USERS: `${SAMPLER_USER.name}:${SAMPLER_USER.password}`,
      WARDEN_KAFKA_AUTHORIZER: '1',
      WARDEN_KAFKA_FRESH: '1',
    });
    await broker('start');
    // The PLAINTEXT listener's ANONYMOUS is a super user: it creates the topics, the group and the ACLs.
    superKafka = createKafka({ brokers: [`127.0.0.1:${PORTS.plaintext}`], clientId: 'acl-admin', logLevel: 'nothing' });
    admin = superKafka.admin();
    await admin.connect();
    await createTopic(admin, readable, 1);
    await createTopic(admin, denied, 1);
    await admin.alterConfigs({
      validateOnly: false,
      resources: [readable, denied].map((name) => ({
        type: ConfigResourceTypes.TOPIC,
        name,
        configEntries: [
          { name: 'retention.ms', value: '20000' },
          { name: 'segment.ms', value: '2000' },
        ],
      })),
    });
    const producer = superKafka.producer();
    await producer.connect();
    for (const topic of [readable, denied])
      await producer.send({ topic, acks: -1, messages: [{ value: 'a' }, { value: 'b' }, { value: 'c' }] });
    await producer.disconnect();
    for (const topic of [readable, denied])
      await commitOffsets(superKafka, groupId, topic, [{ partition: 0, offset: '1' }]);
    await admin.createAcls({
      acl: [
        acl(AclResourceTypes.TOPIC, '*', AclOperationTypes.ALL, AclPermissionTypes.ALLOW),
        acl(AclResourceTypes.GROUP, '*', AclOperationTypes.ALL, AclPermissionTypes.ALLOW),
        acl(AclResourceTypes.CLUSTER, 'kafka-cluster', AclOperationTypes.ALL, AclPermissionTypes.ALLOW),
        acl(AclResourceTypes.TOPIC, denied, AclOperationTypes.DESCRIBE_CONFIGS, AclPermissionTypes.DENY),
      ],
    });
    db = testDatabase();
    const samplerKafka = createKafka({
      brokers: [`127.0.0.1:${PORTS.sasl}`],
      clientId: 'acl-sampler',
      logLevel: 'nothing',
      sasl: { mechanism: 'plain', username: SAMPLER_USER.name, password: SAMPLER_USER.password },
    });
    sampler = new LagSampler({
      cluster: CLUSTER,
      reader: new ClusterReader({
        kafka: samplerKafka,
        ownGroupId: 'warden-unrelated',
        include: new RegExp(`^${groupId}$`),
        exclude: null,
      }),
      db,
      lock: null,
      instanceId: 'retention-acl-it',
      intervalMs: 1_000,
      maxBackoffMs: 2_000,
      state: {
        timeLagPoints: 10,
        timeLagSpacingMs: 0,
        rateWindowMs: 60_000,
        exactTimeLagIntervalMs: 0,
        exactTimeLagMaxPartitions: 10,
      },
      retention: { rawDays: 7, rollupDays: 90 },
      topicSettingsIntervalMs: 0, // every round reads them again
    });
  });

  afterAll(async () => {
    await sampler?.stop();
    await admin?.disconnect().catch(() => undefined);
    await db?.topicRetention.deleteMany({ where: { cluster: CLUSTER } });
    await db?.$disconnect();
    if (brokerEnv) await broker('stop').catch(() => undefined);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const storedSettings = (topic: string) =>
    db.topicRetention.findUniqueOrThrow({ where: { cluster_topic: { cluster: CLUSTER, topic } } });

  it('stores the refusal in words for the topic it may not describe, the settings of the other, and the round succeeds', async () => {
    // The ACLs reach the broker's authorizer through the metadata log: a moment after they were created.
    const round = await eventually('a round with both topics', async () => {
      const result = await sampler.sampleOnce();
      return result.rows.length === 2 ? result : undefined;
    });
    expect(round.written).toBe(true);
    expect(round.rows.map((r) => [r.topic, r.committedOffset, r.logEndOffset])).toEqual([
      [denied, 1n, 3n], // "…-denied" sorts before "…-readable"
      [readable, 1n, 3n],
    ]);
    const refused = await storedSettings(denied);
    expect(refused).toMatchObject({
      readError: `not authorized to describe the configs of topic ${denied} (TOPIC_AUTHORIZATION_FAILED)`,
      cleanupPolicy: null,
      retentionMs: null,
      retentionBytes: null,
      segmentMs: null,
      segmentBytes: null,
      checkIntervalMs: null,
      recordBytes: null,
    });
    expect(await storedSettings(readable)).toMatchObject({
      readError: null,
      cleanupPolicy: 'delete',
      retentionMs: 20_000n,
      retentionBytes: -1n,
      segmentMs: 2_000n,
      checkIntervalMs: 5_000n,
    });

    // The rule over what is stored: the refused topic's risk is unknown, with the refusal as its reason.
    const sample = await db.lagSample.findFirstOrThrow({
      where: { cluster: CLUSTER, groupId, topic: denied },
      orderBy: { sampledAt: 'desc' },
    });
    expect(retentionRisk(settingsFromRow(refused), positionFromSample(sample))).toEqual({
      kind: 'unknown',
      reason: `not authorized to describe the configs of topic ${denied} (TOPIC_AUTHORIZATION_FAILED)`,
    });
  });

  it("keeps the brokers' check interval it read when they refuse it later, and still reads the topics", async () => {
    await admin.createAcls({
      acl: [
        acl(AclResourceTypes.CLUSTER, 'kafka-cluster', AclOperationTypes.DESCRIBE_CONFIGS, AclPermissionTypes.DENY),
      ],
    });
    const before = await storedSettings(readable);
    await eventually('a round after the brokers refuse', async () => {
      const reader = new ClusterReader({
        kafka: createKafka({
          brokers: [`127.0.0.1:${PORTS.sasl}`],
          clientId: 'acl-probe',
          logLevel: 'nothing',
          sasl: { mechanism: 'plain', username: SAMPLER_USER.name, password: SAMPLER_USER.password },
        }),
        ownGroupId: 'warden-unrelated',
        include: null,
        exclude: null,
      });
      try {
        const read = await reader.readTopicSettings([readable]);
        return read.brokerError === 'not authorized to describe the configs of broker 1 (CLUSTER_AUTHORIZATION_FAILED)'
          ? true
          : undefined;
      } finally {
        await reader.disconnect();
      }
    });
    const round = await sampler.sampleOnce();
    expect(round.written).toBe(true);
    const after = await storedSettings(readable);
    expect(after).toMatchObject({ readError: null, retentionMs: 20_000n, checkIntervalMs: 5_000n });
    expect(after.changedAt).toEqual(before.changedAt);
  });
});
