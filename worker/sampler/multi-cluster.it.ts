import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Kafka } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTestConfig } from '../../test-support/test-config';
import { workerConfig } from '../config';
import type { Database } from '../../lib/db';
import { createKafka } from '../../lib/kafka/client';
import { analysisOptions } from '../../lib/groups/analysis-options';
import { getGroupDetail } from '../../lib/server/get-group-detail';
import { listGroups } from '../../lib/server/list-groups';
import { startLocalBroker, stopLocalBroker, type LocalBrokerOptions } from '../../scripts/lib/broker';
import { linkInstalledJars } from '../../test-support/broker-home';
import { groupWithLag } from '../../test-support/commit-offsets';
import { testDatabase } from '../../test-support/database';
import { eventually, testKafka, uniqueName } from '../../test-support/integration';
import { startAlerts } from '../alerts/start-alerts';
import { createLagSampler, type LagSamplerHandle } from './create-lag-sampler';

// One worker's samplers on two real local brokers (two clusters on loopback ports): the same topic and group
// names on both, each cluster's rows tagged with its name, and the second broker stopped: its sampler fails
// and records a gap of its own cluster while the default cluster's sampler keeps writing rounds.

const testConfig = loadTestConfig();
// base+92/93 (npm test's broker), +100 (UI), +110.. (the security test's broker) and +464.. belong to others.
const SECOND = { port: testConfig.WARDEN_TEST_PORT_BASE + 692, controller: testConfig.WARDEN_TEST_PORT_BASE + 693 };

let dir: string;
let second: LocalBrokerOptions;
let secondKafka: Kafka;
let db: Database;
const kafka = testKafka('warden-multi-cluster-it');

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'warden-multi-cluster-'));
  const home = path.join(dir, 'kafka');
  mkdirSync(home, { recursive: true });
  linkInstalledJars(home, testConfig.WARDEN_KAFKA_HOME);
  second = { port: SECOND.port, controllerPort: SECOND.controller, home, fresh: true };
  await startLocalBroker(second);
  secondKafka = createKafka({
    brokers: [`127.0.0.1:${SECOND.port}`],
    clientId: 'multi-cluster-it',
    logLevel: 'nothing',
  });
  db = testDatabase();
}, 180_000);

afterAll(async () => {
  await db?.$disconnect();
  if (second) await stopLocalBroker(second).catch((error: Error) => console.error(error.message));
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('one worker sampling two clusters', () => {
  it('tags every row with its cluster, and a cluster that is down is a gap for that cluster only', async () => {
    const prefix = uniqueName('multi');
    const topic = `${prefix}-in`;
    const groupId = `${prefix}-group`;
    // The same names on both clusters: only the cluster tells the rows apart.
    await groupWithLag(kafka, topic, groupId, { produced: 2, committed: 1 });
    await groupWithLag(secondKafka, topic, groupId, { produced: 5, committed: 1 });

    const config = workerConfig.parse({
      DATABASE_URL: testConfig.DATABASE_URL,
      KAFKA_BROKERS: testConfig.kafkaBrokers.join(','),
      KAFKA_CLIENT_ID: prefix,
      SAMPLER_GROUP_INCLUDE: `^${prefix}-`,
      SAMPLER_TIME_LAG_SPACING_MS: '1',
      WARDEN_CLUSTERS: JSON.stringify([{ name: 'second', brokers: `127.0.0.1:${SECOND.port}` }]),
    });
    const handle: LagSamplerHandle = createLagSampler({ config, kafka });
    try {
      expect(handle.samplers.map((s) => s.cluster)).toEqual(['default', 'second']);
      const [defaultSampler, secondSampler] = handle.samplers.map((s) => s.sampler);

      const first = await defaultSampler!.sampleOnce();
      const other = await secondSampler!.sampleOnce();
      expect(first.written && other.written).toBe(true);
      const rows = await db.lagSample.findMany({ where: { groupId }, orderBy: { cluster: 'asc' } });
      expect(rows.map((r) => [r.cluster, r.topic, r.lag])).toEqual([
        ['default', topic, 1n],
        ['second', topic, 4n],
      ]);
      const points = await db.logEndPoint.findMany({ where: { topic }, orderBy: { cluster: 'asc' } });
      expect(points.map((p) => [p.cluster, p.offset])).toEqual([
        ['default', 2n],
        ['second', 5n],
      ]);

      // The API reads each cluster on its own: the same group id is two groups.
      const options = analysisOptions(config);
      expect((await getGroupDetail(db, 'default', groupId, options)).totalLag).toBe(1);
      expect((await getGroupDetail(db, 'second', groupId, options)).totalLag).toBe(4);
      const listed = await listGroups(db, ['default', 'second'], {}, { ...options, summariesCurrentWithinMs: 15_000 });
      expect(
        listed.groups
          .filter((g) => g.groupId === groupId)
          .map((g) => [g.cluster, g.totalLag])
          .sort(),
      ).toEqual([
        ['default', 1],
        ['second', 4],
      ]);
      await expect(getGroupDetail(db, 'second', `${groupId}-other`, options)).rejects.toThrow(
        `consumer group "${groupId}-other" has never been sampled in cluster "second"`,
      );

      await stopLocalBroker(second);
      await expect(secondSampler!.sampleOnce()).rejects.toThrow();
      const next = await defaultSampler!.sampleOnce();
      expect(next.written).toBe(true);
      expect(next.rows.map((r) => r.groupId)).toEqual([groupId]);

      const gaps = await db.samplerGap.findMany({ where: { instanceId: { startsWith: prefix } } });
      expect(gaps.map((g) => [g.cluster, g.endedAt, g.failedRounds])).toEqual([['second', null, 1]]);
      const defaultRounds = await db.lagSample.count({ where: { groupId, cluster: 'default' } });
      const secondRounds = await db.lagSample.count({ where: { groupId, cluster: 'second' } });
      expect([defaultRounds, secondRounds]).toEqual([2, 1]);

      // Back up: the second cluster's next round closes its gap and samples again.
      await startLocalBroker({ ...second, fresh: false });
      // A restarted broker answers "coordinator loading" for a moment: rounds fail until it has loaded.
      await eventually('a round of the restarted second cluster', () =>
        secondSampler!.sampleOnce().then(
          (round) => (round.written ? round : undefined),
          () => undefined,
        ),
      );
      const closed = await db.samplerGap.findFirstOrThrow({ where: { instanceId: { startsWith: prefix } } });
      expect(closed.cluster).toBe('second');
      expect(closed.endedAt).not.toBeNull();
    } finally {
      await handle.stop();
    }
  }, 180_000);

  it("evaluates each cluster's alerts from its own sampler's rounds, tagged and linked with that cluster", async () => {
    const prefix = uniqueName('multi-alerts');
    const topic = `${prefix}-in`;
    const groupId = `${prefix}-group`;
    await groupWithLag(kafka, topic, groupId, { produced: 2, committed: 1 });
    await groupWithLag(secondKafka, topic, groupId, { produced: 5, committed: 1 });
    // Only the second cluster's group is held at a record.
    await db.partitionQuarantine.create({
      data: {
        cluster: 'second',
        groupId,
        topic,
        partition: 0,
        offset: 1n,
        reason: 'invalid JSON',
        errorClass: 'permanent',
        since: new Date(),
        attempts: 1,
        recordHeaders: {},
      },
    });
    const config = workerConfig.parse({
      DATABASE_URL: testConfig.DATABASE_URL,
      KAFKA_BROKERS: testConfig.kafkaBrokers.join(','),
      KAFKA_CLIENT_ID: prefix,
      SAMPLER_GROUP_INCLUDE: `^${prefix}-`,
      WARDEN_CLUSTERS: JSON.stringify([{ name: 'second', brokers: `127.0.0.1:${SECOND.port}` }]),
      ALERT_CLUSTER_NAME: 'prod-main',
    });
    const alerts = startAlerts({ config, db, instanceId: prefix, readiness: () => ({ ready: true, detail: 'test' }) });
    const rounds: string[] = [];
    const handle = createLagSampler({
      config,
      kafka,
      onRound: (cluster, outcome, stats) => {
        rounds.push(cluster);
        alerts.onSamplerRound(cluster, outcome, stats);
      },
    });
    try {
      for (const { sampler } of handle.samplers) await sampler.sampleOnce();
      expect(rounds).toEqual(['default', 'second']);
      await Promise.all([...alerts.hooks.values()].map((hook) => hook.idle()));
      const raised = await db.alert.findMany({ where: { groupId }, include: { notifications: true } });
      const quarantined = raised.filter((a) => a.condition === 'partition-quarantined');
      expect(quarantined.map((a) => a.cluster)).toEqual(['second']);
      expect(quarantined[0]!.id.startsWith('second/')).toBe(true);
      const payload = JSON.parse(quarantined[0]!.notifications[0]!.body) as { cluster: string; group: string };
      expect(payload).toMatchObject({ cluster: 'second', group: groupId });
    } finally {
      await handle.stop();
      await alerts.stop();
    }
  }, 120_000);
});
