import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childProcessEnv } from '../../lib/config/program-config';
import { loadTestConfig } from '../../test-support/test-config';
import type { Database } from '../../lib/db';
import { getGroupAdvice } from '../../lib/server/get-group-advice';
import { getGroupDetail } from '../../lib/server/get-group-detail';
import { listRebalances } from '../../lib/server/list-rebalances';
import { testDatabase } from '../../test-support/database';
import { eventually, uniqueName } from '../../test-support/integration';
import { ORDERS_SERVICE, ordersServiceDatabaseUrl } from './demo-orders-service';
import { plainConsumerGroupId } from './demo-story';
import { archiverGroupId } from './demo-archiver';
import { HOT_PARTITION, MALFORMED_ORDER_PARTITION, POISON_PARTITION } from './demo-traffic';

// `npm run demo` end to end (headless, the story played twice as fast) on the test broker and database:
// every act of the story leaves its mark where the dashboard reads it, the orders service's included.

const ROOT = path.resolve(__dirname, '..', '..');
let db: Database;
let demo: ChildProcess | null = null;
let output = '';

beforeAll(() => {
  db = testDatabase();
});

afterAll(async () => {
  if (demo?.pid && demo.exitCode === null) {
    const exited = new Promise((resolve) => demo!.once('exit', resolve));
    process.kill(-demo.pid, 'SIGINT');
    await exited;
  }
  await db?.$disconnect();
  // The orders service's own database, made by the demo beside the test database.
  const url = new URL(ordersServiceDatabaseUrl(loadTestConfig().DATABASE_URL));
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name.replaceAll('"', '""')}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
});

describe('npm run demo', () => {
  it(
    'plays the story: hot partition, poison quarantine, a backlog that drains, rebalances, advice',
    { timeout: 300_000 },
    async () => {
      const prefix = uniqueName('demo');
      const groupId = `${prefix}-group`;
      const topic = `${prefix}-events`;
      const plainGroupId = plainConsumerGroupId(groupId);
      const archiverGroup = archiverGroupId(groupId);
      const config = loadTestConfig();
      demo = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo.ts', '--no-ui'], {
        cwd: ROOT,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: childProcessEnv({
          KAFKA_BROKERS: config.kafkaBrokers.join(','),
          WARDEN_GROUP_ID: groupId,
          WARDEN_INPUT_TOPIC: topic,
          WARDEN_RESULTS_TOPIC: `${prefix}-results`,
          WARDEN_DLQ_TOPIC: `${prefix}-dlq`,
          WORKER_PORT: String(config.WORKER_PORT + 30),
          SAMPLE_INTERVAL_MS: '1000',
          SAMPLER_GROUP_INCLUDE: `^${plainGroupId}$|^${groupId}$|^${ORDERS_SERVICE.groupId}$|^${archiverGroup}$`,
          // Twice as fast, on workers that take at most 8 records at once, ~50 ms each: about 160 records/s, so the
          // surge (400 records/s) builds a backlog of thousands whatever the machine's speed.
          DEMO_STORY_SPEED: '2',
          DEMO_RATE_PER_SEC: '10',
          DEMO_SURGE_RATE_PER_SEC: '200',
          DEMO_HOT_KEY_RATE_PER_SEC: '15',
          DEMO_WORKER_LATENCY_MS: '100',
          WARDEN_MAX_IN_FLIGHT: '8',
          LOG_LEVEL: 'warn',
        }),
      });
      const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-65_536));
      demo.stdout!.on('data', keep);
      demo.stderr!.on('data', keep);
      const exited = new Promise<number | null>((resolve) => demo!.once('exit', (code) => resolve(code)));
      const report = () => `demo output:\n${output}`;
      // Any wait that times out says what the demo printed (its story cues and the workers' warnings).
      const waitFor = <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number) =>
        eventually(what, probe, timeoutMs).catch(async (e: Error) => {
          const samples = await db.lagSample.count({ where: { groupId } });
          const peakLag = await db.lagSample.aggregate({ where: { groupId }, _max: { lag: true } });
          throw new Error(
            `${e.message}\nlag samples of the group: ${samples}, highest lag ${peakLag._max.lag ?? 'none'}\n${report()}`,
          );
        });

      await waitFor('the demo to come up', async () => (output.includes('demo: up in') ? true : undefined), 120_000);

      // The poison record (story second 45) quarantines its partition; the record is shown to the operator.
      const quarantine = await waitFor(
        'the poison partition to be quarantined',
        () =>
          db.partitionQuarantine
            .findFirst({ where: { groupId, topic, partition: POISON_PARTITION } })
            .then((q) => q ?? undefined),
        90_000,
      );
      expect(quarantine.recordPreview).toContain('truncated-by-a-buggy-producer');

      // The orders service (a team's own service, beside the worker) took its orders, and its malformed order
      // (story second 50) is reported over the control plane: the hold names the service's instance.
      const serviceInstance = await waitFor(
        "the orders service's instance reported",
        () =>
          db.consumerInstance
            .findFirst({ where: { groupId: ORDERS_SERVICE.groupId, status: 'running' } })
            .then((row) => row ?? undefined),
        30_000,
      );
      expect(serviceInstance.instanceId).toMatch(new RegExp(`^${ORDERS_SERVICE.groupId}@.+/\\d+$`));
      const serviceHold = await waitFor(
        "the orders service's malformed order held",
        () =>
          db.partitionQuarantine
            .findFirst({
              where: {
                groupId: ORDERS_SERVICE.groupId,
                topic: ORDERS_SERVICE.topic,
                partition: MALFORMED_ORDER_PARTITION,
              },
            })
            .then((q) => q ?? undefined),
        60_000,
      );
      expect(serviceHold).toMatchObject({ heldBy: serviceInstance.instanceId, errorClass: 'invalid-order' });
      expect(serviceHold.reason).toMatch(/^not an order: .*amountCents/);
      expect(serviceHold.recordPreview).toContain('-malformed');
      expect(output).toContain('the orders service gets a malformed order');
      const ordersDb = new pg.Client({ connectionString: ordersServiceDatabaseUrl(config.DATABASE_URL) });
      await ordersDb.connect();
      try {
        const { rows } = await ordersDb.query<{ count: string }>('SELECT count(*) FROM orders_service_order');
        expect(Number(rows[0]!.count)).toBeGreaterThan(0);
      } finally {
        await ordersDb.end();
      }

      // The plain kafkajs consumer (story 10-60 s) stops: its group turns ERR at once, STOP with its reason.
      await waitFor(
        'the plain consumer to stop',
        async () => (output.includes('plain kafkajs consumer') ? true : undefined),
        60_000,
      );
      const stopped = await waitFor(
        'the plain consumer group to be ERR with STOP partitions',
        async () => {
          const detail = await getGroupDetail(db, 'default', plainGroupId, {
            timeLagObjectiveMs: null,
            rateWindowMs: 30_000,
          }).catch(() => undefined);
          return detail?.status === 'ERR' && detail.partitions.some((p) => p.status === 'STOP') ? detail : undefined;
        },
        30_000,
      );
      expect(stopped.state).toBe('Empty');
      expect(stopped.statusReasons[0]).toMatch(/STOP: the group has no members; no commit for /);

      // The archiver of the short-retention audit topic (from story second 15) falls behind: its partitions are
      // at risk, with a window that shrinks while it reads a quarter as fast as records arrive.
      const detailOf = (id: string) =>
        getGroupDetail(db, 'default', id, { timeLagObjectiveMs: null, rateWindowMs: 30_000 }).catch(() => undefined);
      const windows: number[] = [];
      await waitFor(
        "the archiver's retention window to count down",
        async () => {
          const risk = (await detailOf(archiverGroup))?.partitions.find((p) => p.retentionRisk.kind === 'at-risk');
          if (risk?.retentionRisk.kind === 'at-risk' && risk.retentionRisk.earliestMs !== null)
            windows.push(risk.retentionRisk.earliestMs);
          return windows.length >= 2 && windows.at(-1)! < windows[0]! ? true : undefined;
        },
        60_000,
      );

      // The surge (75-120) builds a backlog on the partitions that flow; after it, the backlog drains.
      const flowing = (p: number) => p !== POISON_PARTITION && p !== HOT_PARTITION;
      const backlogAt = async () => {
        const latest = await db.lagSample.findFirst({ where: { groupId }, orderBy: { sampledAt: 'desc' } });
        if (!latest) return 0;
        const rows = await db.lagSample.findMany({ where: { groupId, sampledAt: latest.sampledAt } });
        return rows.filter((r) => flowing(r.partition)).reduce((sum, r) => sum + Number(r.lag ?? 0n), 0);
      };
      let peak = 0;
      await waitFor(
        'a backlog of 300+ records on the flowing partitions',
        async () => {
          peak = Math.max(peak, await backlogAt());
          return peak >= 300 ? true : undefined;
        },
        90_000,
      );
      // While the group falls behind, the advisor's capacity card says how many consumers and how long.
      const adviceOptions = { timeLagObjectiveMs: null, rateWindowMs: 30_000, targetCatchUpSec: 60 };
      const behind = await waitFor(
        'a capacity plan while the backlog builds',
        async () => {
          const advice = await getGroupAdvice(db, 'default', groupId, adviceOptions);
          return advice.planState === 'planned' && advice.plan !== null ? advice.plan : undefined;
        },
        60_000,
      );
      expect(behind.recommendedConsumers).toBeGreaterThanOrEqual(1);
      expect(behind.recommendedConsumers).toBeLessThanOrEqual(6);
      await waitFor(
        'the backlog to drain below a quarter of its peak',
        async () => {
          const backlog = await backlogAt();
          peak = Math.max(peak, backlog);
          return backlog <= peak / 4 ? true : undefined;
        },
        120_000,
      );

      // Then retention deletes records the archiver had not read: a loss with its count and range, the group
      // LOST until someone acknowledges it, and the records-lost alert at the demo's receiver.
      const lost = await waitFor(
        'the archiver to lose records to retention',
        async () => {
          const detail = await detailOf(archiverGroup);
          return detail?.status === 'LOST' && detail.losses.length > 0 ? detail : undefined;
        },
        90_000,
      );
      const loss = lost.losses[0]!;
      expect(BigInt(loss.count)).toBe(BigInt(loss.toOffset) - BigInt(loss.fromOffset) + 1n);
      expect(loss.summary).toMatch(/records? \(offsets? .*\) deleted unread/);
      await waitFor(
        'the records-lost alert at the receiver',
        async () =>
          output
            .split('\n')
            .some(
              (line) =>
                line.includes('alert ▶ [FIRING critical]') &&
                line.includes(`${archiverGroup}: `) &&
                line.includes('deleted unread'),
            ) || undefined,
        30_000,
      );

      // The hot key's partition lagged alone while the others kept up.
      const hotPeak = await db.lagSample.aggregate({
        where: { groupId, partition: HOT_PARTITION },
        _max: { lag: true },
      });
      expect(Number(hotPeak._max.lag ?? 0n)).toBeGreaterThan(50);

      // The second worker joined (story second 90) and left (150): rebalances measured and inferred.
      await waitFor(
        'the second worker to leave',
        async () => (output.includes('the second worker leaves') ? true : undefined),
        60_000,
      );
      const inferred = await waitFor(
        'an inferred rebalance with two members and one with one after',
        async () => {
          const rows = await db.rebalanceEvent.findMany({ where: { groupId, source: 'describe-groups' } });
          const sizes = rows.map((r) => (r.membersAfter as unknown[]).length);
          return sizes.includes(2) &&
            rows.some((r) => (r.membersBefore as unknown[]).length === 2 && (r.membersAfter as unknown[]).length === 1)
            ? rows
            : undefined;
        },
        60_000,
      );
      expect(inferred.length).toBeGreaterThanOrEqual(2);
      expect(await db.rebalanceEvent.count({ where: { groupId, source: 'own-consumer' } })).toBeGreaterThanOrEqual(3);
      // The history shows each of the two changes once: the join with both workers' stops, the leave with the
      // first worker's, each with what the sampler saw. A worker's measured stop reaches Postgres over the control
      // topics, which can come after the sampler's inference: the history is awaited, not read once.
      type History = Awaited<ReturnType<typeof listRebalances>>['rebalances'];
      const sampled = (rebalances: History, trigger: string, stops: number) =>
        rebalances.filter((r) => r.trigger === trigger && r.stops.length === stops && r.sampledBetween !== null);
      const history = await waitFor(
        'the join and the leave in the rebalance history, each with its measured stops and the sampled members',
        async () => {
          const { rebalances } = await listRebalances(db, 'default', { groupId });
          return sampled(rebalances, 'join', 2).length > 0 && sampled(rebalances, 'leave', 1).length > 0
            ? rebalances
            : undefined;
        },
        30_000,
      );
      expect(sampled(history, 'join', 2)).toHaveLength(1);
      expect(sampled(history, 'leave', 1)).toHaveLength(1);

      // The archiver reads again at story second 150: kafkajs resets it past the deleted records, which ends the
      // episode; the group stays LOST until someone acknowledges the loss.
      const ended = await waitFor(
        "the archiver's loss episode to end when it reads again",
        async () => {
          const detail = await detailOf(archiverGroup);
          return detail?.losses.some((l) => l.endedAt !== null) ? detail : undefined;
        },
        45_000,
      );
      expect(ended.status).toBe('LOST');

      // The rebalances the second worker caused are in the advice too (the story's rate is well above the threshold).
      const advice = await getGroupAdvice(db, 'default', groupId, adviceOptions);
      expect(advice.advice.map((a) => a.id)).toContain('rebalance-rate');

      process.kill(-demo.pid!, 'SIGINT');
      expect(await exited).toBe(0);
      expect(output).toContain('demo: stopped');
      // The orders service stopped with the demo: its readiness port no longer answers.
      await expect(fetch(`http://127.0.0.1:${config.WORKER_PORT + 32}/readyz`)).rejects.toThrow();
    },
  );
});
