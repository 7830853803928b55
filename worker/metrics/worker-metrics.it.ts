import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import { loadTestConfig } from '../../test-support/test-config';
import { WorkerProcess } from '../../scripts/lib/worker-process';
import { createTopic, eventually, readTopic, testKafka, uniqueName } from '../../test-support/integration';
import { parsePrometheusText, type PrometheusExposition } from '../../test-support/prometheus-text';

// The real worker process on the real broker and database: its /metrics output parses, the key series move
// as traffic flows (completions, retries, commits, a quarantine, the sampler's lag), its logs carry record
// coordinates without payloads, and a W3C traceparent travels from the input record to the result.

const kafka = testKafka('warden-metrics-it');
let admin: Admin;

beforeAll(async () => {
  admin = kafka.admin();
  await admin.connect();
});

afterAll(async () => {
  await admin?.disconnect();
});

const PARTITIONS = 3;
const RECORDS_PER_PARTITION = 60;
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;
/** Appears in every payload; must never appear in the logs. */
const PAYLOAD_MARKER = 'secret-payload-marker-7c1e';

describe('worker metrics, logs and trace context', () => {
  it('exposes metrics that move with traffic, logs coordinates only, and continues traceparent', async () => {
    const prefix = uniqueName('metrics');
    const topic = `${prefix}-in`;
    const resultsTopic = `${prefix}-results`;
    const groupId = `${prefix}-group`;
    await createTopic(admin, topic, PARTITIONS);
    const worker = new WorkerProcess({
      WARDEN_GROUP_ID: groupId,
      WARDEN_INPUT_TOPIC: topic,
      WARDEN_RESULTS_TOPIC: resultsTopic,
      WARDEN_DLQ_TOPIC: `${prefix}-dlq`,
      WARDEN_INPUT_PARTITIONS: String(PARTITIONS),
      WORKER_PORT: String(loadTestConfig().WORKER_PORT + 11),
      SAMPLER_GROUP_INCLUDE: `^${groupId}$`,
      SAMPLE_INTERVAL_MS: '1000',
      WARDEN_FAULT_TRANSIENT_RATE: '0.2',
      WARDEN_COMMIT_INTERVAL_MS: '200',
      LOG_LEVEL: 'info',
    });
    const scrape = async (): Promise<PrometheusExposition> => {
      const response = await fetch(`http://127.0.0.1:${worker.port}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      return parsePrometheusText(await response.text());
    };

    await worker.start();
    try {
      const before = await scrape();
      expect(before.sum('warden_records_completed_total')).toBe(0);
      expect(before.types.get('warden_commit_duration_seconds')).toBe('histogram');
      expect(before.find('process_resident_memory_bytes')).toHaveLength(1);

      const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
      await producer.connect();
      const event = (i: number) =>
        JSON.stringify({
          eventId: `${prefix}-${i}`,
          type: 'document.upsert',
          businessId: `${prefix}-${i}`,
          resultKey: `r-${i}`,
          payload: { marker: PAYLOAD_MARKER },
        });
      await producer.send({
        topic,
        acks: -1,
        messages: Array.from({ length: PARTITIONS * RECORDS_PER_PARTITION }, (_, i) => ({
          partition: i % PARTITIONS,
          key: `key-${i % 10}`,
          value: event(i),
          headers: i === 0 ? { traceparent: TRACEPARENT, tracestate: 'vendor=warden-test' } : {},
        })),
      });
      // A poison record (not JSON) quarantines partition 2; the others keep flowing.
      await producer.send({
        topic,
        acks: -1,
        messages: [{ partition: 2, key: 'poison', value: `{ not json ${PAYLOAD_MARKER}` }],
      });
      await producer.disconnect();

      const valid = PARTITIONS * RECORDS_PER_PARTITION;
      const after = await eventually(
        'every valid record completed, the poison partition quarantined and the sampler reporting',
        async () => {
          const m = await scrape();
          const done =
            m.sum('warden_records_completed_total', { outcome: 'handled' }) === valid &&
            m.sum('warden_partition_quarantined', { topic, partition: '2' }) === 1 &&
            m.find('warden_group_lag_records', { group: groupId, topic }).length === PARTITIONS;
          return done ? m : undefined;
        },
        90_000,
      );
      expect(after.sum('warden_admission_failures_total')).toBe(1);
      expect(after.sum('warden_quarantines_total')).toBe(1);
      expect(after.sum('warden_partition_quarantined', { topic, partition: '0' })).toBe(0);
      // 20% injected transient failures over 180 records: retries happen (retried in place, none lost).
      expect(after.sum('warden_retries_total', { phase: 'handle' })).toBeGreaterThan(0);
      expect(after.sum('warden_commits_total')).toBeGreaterThan(0);
      expect(after.sum('warden_commit_duration_seconds_count')).toBeGreaterThanOrEqual(
        after.sum('warden_commits_total'),
      );
      expect(after.sum('warden_rebalances_total', { cause: 'join' })).toBeGreaterThanOrEqual(1);
      expect(after.sum('warden_sampler_rounds_total', { outcome: 'ok' })).toBeGreaterThan(0);
      expect(after.sum('warden_sampler_leader')).toBe(1);
      expect(after.sum('warden_consumer_state', { state: 'running' })).toBe(1);
      // The quarantined partition's lag holds the poison record and never drains past it.
      await eventually(
        'partitions 0 and 1 drained in the sampled lag, partition 2 held at its poison record',
        async () => {
          const m = await scrape();
          const lagOf = (p: number) =>
            m.sum('warden_group_lag_records', { group: groupId, topic, partition: String(p) });
          return lagOf(0) === 0 && lagOf(1) === 0 && lagOf(2) === 1 ? true : undefined;
        },
        30_000,
      );
      // Bounded cardinality: no offset, key or payload ever becomes a label.
      for (const sample of after.samples) {
        expect(Object.keys(sample.labels).filter((l) => ['offset', 'key'].includes(l))).toEqual([]);
        expect(JSON.stringify(sample.labels)).not.toContain(PAYLOAD_MARKER);
      }

      const results = await readTopic(kafka, resultsTopic, valid, 60_000);
      const traced = results.filter((r) => r.headers.traceparent !== undefined);
      expect(traced).toHaveLength(1);
      expect(JSON.parse(traced[0]!.value!).eventId).toBe(`${prefix}-0`);
      // No OpenTelemetry SDK in the worker: the context is forwarded unchanged (see trace-context.ts).
      expect(traced[0]!.headers.traceparent).toBe(TRACEPARENT);
      expect(traced[0]!.headers.tracestate).toBe('vendor=warden-test');

      const logLines = worker.output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const retry = logLines.find((l) => l.event === 'retry-scheduled');
      expect(retry).toMatchObject({ topic, partition: expect.any(Number), offset: expect.any(String) });
      const quarantined = logLines.find((l) => l.event === 'quarantined');
      expect(quarantined).toMatchObject({
        topic,
        partition: 2,
        offset: String(RECORDS_PER_PARTITION),
        errorClass: expect.any(String),
      });
      expect(worker.output).not.toContain(PAYLOAD_MARKER);
    } finally {
      expect(await worker.stop('SIGTERM')).toBe(0);
    }
  });
});
