import path from 'node:path';
import type { Admin } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertPayloadV1 } from '../../lib/alerts/alert-payload';
import { loadTestConfig } from '../../test-support/test-config';
import { WorkerProcess } from '../../scripts/lib/worker-process';
import { HttpReceiver } from '../../test-support/http-receiver';
import { createTopic, eventually, testKafka, uniqueName } from '../../test-support/integration';
import { PrometheusServer } from '../../test-support/prometheus-server';

// A real worker with alerts configured, a poison record, and both ways on-call hears of it: Warden's own
// webhook (evaluated after the sampler's round, delivered from the outbox) and the shipped Prometheus rules
// on Debian's real Prometheus server scraping the worker. One incident, one notification: the quarantine
// pages once, and the group status it causes (QUARANTINED) raises nothing, however long it lasts.

const kafka = testKafka('warden-alerts-it');
const GROUP_STATUS_FOR_MS = 3_000;
let admin: Admin;

beforeAll(async () => {
  admin = kafka.admin();
  await admin.connect();
});

afterAll(async () => {
  await admin?.disconnect();
});

describe('alerts from a real worker', () => {
  it('delivers the quarantine to the webhook once, and fires WardenPartitionQuarantined in Prometheus', async () => {
    const prefix = uniqueName('alerts');
    const topic = `${prefix}-in`;
    const groupId = `${prefix}-group`;
    await createTopic(admin, topic, 2);
    const receiver = new HttpReceiver();
    await receiver.start();
    const hook = receiver.on('/hook', () => ({ status: 200 }));
    const workerPort = loadTestConfig().WORKER_PORT + 40;
    const worker = new WorkerProcess({
      WARDEN_GROUP_ID: groupId,
      WARDEN_INPUT_TOPIC: topic,
      WARDEN_RESULTS_TOPIC: `${prefix}-results`,
      WARDEN_DLQ_TOPIC: `${prefix}-dlq`,
      WARDEN_INPUT_PARTITIONS: '2',
      WORKER_PORT: String(workerPort),
      SAMPLER_GROUP_INCLUDE: `^${groupId}$`,
      SAMPLE_INTERVAL_MS: '1000',
      ALERT_WEBHOOK_URL: hook,
      ALERT_WEBHOOK_SECRET: 'integration-test-secret-0123456789',
      ALERT_CLUSTER_NAME: 'it-cluster',
      // group-status fires 3 s after it holds: well within the test, were the quarantine to page twice.
      ALERT_SETTINGS: JSON.stringify({
        '*': { 'partition-quarantined': { forMs: 0 }, 'group-status': { forMs: GROUP_STATUS_FOR_MS } },
      }),
    });
    const prometheus = new PrometheusServer({
      port: loadTestConfig().WORKER_PORT + 41,
      ruleFiles: [path.resolve(__dirname, '..', '..', 'deploy', 'prometheus', 'warden-rules.yml')],
      targets: [`127.0.0.1:${workerPort}`],
      job: 'warden-worker',
      intervalSec: 1,
    });
    await worker.start();
    try {
      await prometheus.start();
      const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
      await producer.connect();
      await producer.send({ topic, acks: -1, messages: [{ partition: 1, key: 'poison', value: '{ not json' }] });
      await producer.disconnect();

      const delivered = await eventually(
        'the quarantine alert at the webhook',
        async () => {
          const request = receiver
            .requestsTo('/hook')
            .map((r) => JSON.parse(r.body) as AlertPayloadV1)
            .find((p) => p.condition === 'partition-quarantined' && p.group === groupId);
          return request;
        },
        60_000,
      );
      expect(delivered).toMatchObject({
        version: 1,
        status: 'firing',
        cluster: 'it-cluster',
        severity: 'critical',
        dashboardUrl: 'http://127.0.0.1:3000/quarantine',
      });
      expect(delivered.reasons).toEqual([expect.stringMatching(new RegExp(`^${topic}-1 quarantined at offset 0: `))]);
      const deliveredAtMs = Date.now();

      const firing = await eventually(
        'WardenPartitionQuarantined firing in Prometheus',
        async () =>
          (await prometheus.alerts()).find(
            (a) =>
              a.labels.alertname === 'WardenPartitionQuarantined' && a.labels.topic === topic && a.state === 'firing',
          ),
        60_000,
      );
      expect(firing.labels).toMatchObject({ partition: '1', severity: 'critical', job: 'warden-worker' });
      expect(firing.annotations.summary).toBe(`${topic}-1 is quarantined on 127.0.0.1:${workerPort}`);

      // Past the group status's for-window and a few rounds more (1 s each): still the one notification.
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, deliveredAtMs + GROUP_STATUS_FOR_MS + 4_000 - Date.now())),
      );
      const notifications = receiver
        .requestsTo('/hook')
        .map((r) => JSON.parse(r.body) as AlertPayloadV1)
        .filter((p) => p.group === groupId);
      expect(notifications.map((p) => `${p.kind} ${p.condition}`)).toEqual(['firing partition-quarantined']);
    } finally {
      await prometheus.stop();
      await worker.stop();
      await receiver.stop();
    }
  });
});
