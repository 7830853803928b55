import { describe, expect, it } from 'vitest';
import { flushMicrotasks, ManualClock } from '../core/testing/fake-clock.js';
import type { CoreEvent, SourceRecord } from '../core/index.js';
import type { RebalanceTiming } from './consumer-types.js';
import { HELD_BATCH_MAX_MS } from './fetch-hold.js';
import { FakeKafka, type FakeKafkajsConsumer } from './testing/fake-kafkajs.js';
import { createConsumer, type WardenConsumerOptions } from './warden-consumer.js';

// The adapter, supervisor, readiness and rebalance timing wired together (WardenConsumer) over a fake kafkajs
// and a manual clock, with the real (pure) consumer core. What kafkajs itself does is the fake's script;
// the real-broker tests (*.it.ts) prove the same paths against kafkajs and Kafka.

const TOPIC = 'in';
const tp0 = { topic: TOPIC, partition: 0 };
const tp1 = { topic: TOPIC, partition: 1 };
const both = { [TOPIC]: [0, 1] };

function setup(overrides: Partial<WardenConsumerOptions<string>> & { invalidOffsets?: string[] } = {}) {
  const { invalidOffsets = [], ...options } = overrides;
  const clock = new ManualClock(1_000_000);
  const kafka = new FakeKafka();
  const handled: string[] = [];
  const timings: RebalanceTiming[] = [];
  const events: CoreEvent[] = [];
  const fatal: string[] = [];
  const logs: Array<{ level: string; msg: string }> = [];
  const logAt = (level: string) => (_: object, msg?: string) => logs.push({ level, msg: msg ?? '' });
  const invalid = new Set(invalidOffsets);
  const consumer = createConsumer<string>({
    kafka,
    groupId: 'g',
    topics: [TOPIC],
    clock,
    logger: { info: logAt('info'), warn: logAt('warn'), error: logAt('error') },
    readinessWindowMs: 20_000,
    restartAfterMs: 45_000,
    admit: (record: SourceRecord) =>
      invalid.has(record.offset)
        ? { ok: false, reason: 'no result key', errorClass: 'invalid' }
        : { ok: true, value: `${record.partition}@${record.offset}`, orderingKey: null },
    handle: (value) => {
      handled.push(value);
      return Promise.resolve();
    },
    onRebalance: (timing) => timings.push(timing),
    onEvent: (event) => events.push(event),
    onFatal: (reason) => fatal.push(reason),
    ...options,
  });
  return { clock, kafka, consumer, handled, timings, events, fatal, logs };
}

type Setup = ReturnType<typeof setup>;

async function startAndJoin(s: Setup, assignment: Record<string, number[]> = both): Promise<FakeKafkajsConsumer> {
  await s.consumer.start();
  const kafkajs = s.kafka.latest;
  kafkajs.join(assignment);
  await flushMicrotasks();
  return kafkajs;
}

/** Delivers a batch and lets the core and the adapter's promise callbacks run. */
async function deliver(kafkajs: FakeKafkajsConsumer, partition: number, offsets: number[], highWatermark?: number) {
  const batch = kafkajs.deliver({
    topic: TOPIC,
    partition,
    offsets,
    highWatermark: highWatermark === undefined ? undefined : String(highWatermark),
  });
  await flushMicrotasks();
  return batch;
}

describe('WardenConsumer over a fake kafkajs: the adapter', () => {
  it('runs kafkajs without autocommit, subscribes every topic, and feeds the core what eachBatch brings', async () => {
    const s = setup({ fromBeginning: false });
    const kafkajs = await startAndJoin(s);
    expect(kafkajs.subscriptions).toEqual([{ topic: TOPIC, fromBeginning: false }]);
    expect(kafkajs.config).toMatchObject({ groupId: 'g', maxWaitTimeInMs: 100, sessionTimeout: 30_000 });
    expect(s.kafka.adminClient.connected).toBe(true);
    expect(s.consumer.assignment).toEqual([tp0, tp1]);

    const batch = await deliver(kafkajs, 1, [0, 1, 2], 10);
    expect(batch.resolved).toEqual(['2']);
    expect(batch.hasReturned()).toBe(true);
    expect(s.handled).toEqual(['1@0', '1@1', '1@2']);

    await s.clock.tick(1_000);
    expect(kafkajs.commits.at(-1)).toEqual([{ topic: TOPIC, partition: 1, offset: '3', metadata: 'w1:3:' }]);
  });

  it('drops stale batches without resolving them', async () => {
    const s = setup();
    const kafkajs = await startAndJoin(s);
    const batch = kafkajs.deliver({ topic: TOPIC, partition: 0, offsets: [0, 1], stale: true });
    await flushMicrotasks();
    expect(batch.resolved).toEqual([]);
    expect(s.handled).toEqual([]);
  });

  it('hands the committed metadata of every assigned topic to the core after a join', async () => {
    const s = setup();
    s.kafka.adminClient.committed.set(TOPIC, [{ partition: 0, offset: '4', metadata: null }]);
    const kafkajs = await startAndJoin(s);
    expect(s.kafka.adminClient.fetchOffsetsCalls).toEqual([{ groupId: 'g', topics: [TOPIC] }]);
    // Redelivered copies below the committed offset are ignored once the commit point is known.
    await deliver(kafkajs, 0, [2, 3, 4, 5]);
    expect(s.handled).toEqual(['0@4', '0@5']);
  });

  it('delivers anyway when the commit metadata cannot be read, and says records may be replayed', async () => {
    const s = setup();
    s.kafka.adminClient.fetchOffsetsError = new Error('coordinator not available');
    const kafkajs = await startAndJoin(s);
    await deliver(kafkajs, 0, [0]);
    expect(s.handled).toEqual(['0@0']);
    expect(s.logs).toContainEqual({
      level: 'warn',
      msg: 'could not read commit metadata; completed records may be replayed',
    });
  });

  it('re-applies the pauses the core holds after kafkajs recreates its consumer group', async () => {
    const s = setup({ invalidOffsets: ['1'] });
    const kafkajs = await startAndJoin(s);
    await deliver(kafkajs, 0, [0, 1, 2], 10); // offset 1 fails admission: partition 0 is quarantined
    expect(kafkajs.isPaused(TOPIC, 0)).toBe(true);
    expect(kafkajs.seeks).toEqual([{ topic: TOPIC, partition: 0, offset: '1' }]);

    expect(await kafkajs.crash(new Error('connection lost'), { retriable: true })).toBe(true);
    kafkajs.restartAfterCrash();
    expect(kafkajs.isPaused(TOPIC, 0)).toBe(false); // kafkajs forgot it
    kafkajs.join(both);
    await flushMicrotasks();
    expect(kafkajs.isPaused(TOPIC, 0)).toBe(true);
    expect(kafkajs.isPaused(TOPIC, 1)).toBe(false);
  });

  it('a partition revoked while paused comes back unpaused after kafkajs recreated its group', async () => {
    const s = setup({ invalidOffsets: ['0'] });
    const kafkajs = await startAndJoin(s);
    await deliver(kafkajs, 1, [0], 10);
    expect(kafkajs.isPaused(TOPIC, 1)).toBe(true);
    await kafkajs.crash(new Error('connection lost'), { retriable: true });
    kafkajs.restartAfterCrash();
    kafkajs.join({ [TOPIC]: [0] });
    await flushMicrotasks();
    kafkajs.join(both); // partition 1 comes back: a fresh start, not paused
    await flushMicrotasks();
    expect(kafkajs.isPaused(TOPIC, 1)).toBe(false);
  });

  it('keeps a seek made while kafkajs has no consumer group and applies it after the next join', async () => {
    const s = setup({ invalidOffsets: ['1'] });
    const kafkajs = await startAndJoin(s);
    await deliver(kafkajs, 0, [0, 1], 10);
    await kafkajs.crash(new Error('connection lost'), { retriable: true });
    // An operator seeks the quarantined partition while kafkajs is between the crash and its restart.
    expect(s.consumer.core.seekQuarantined(tp0, '7')).toMatchObject({ action: 'seeked', seekOffset: '7' });
    expect(kafkajs.seeks).toEqual([{ topic: TOPIC, partition: 0, offset: '1' }]);

    kafkajs.restartAfterCrash();
    kafkajs.join(both);
    await flushMicrotasks();
    expect(kafkajs.seeks).toEqual([
      { topic: TOPIC, partition: 0, offset: '1' },
      { topic: TOPIC, partition: 0, offset: '7' },
    ]);
    kafkajs.join(both); // applied once
    await flushMicrotasks();
    expect(kafkajs.seeks).toHaveLength(2);
  });

  it('drops a pending seek for a partition the join revoked', async () => {
    const s = setup({ invalidOffsets: ['1'] });
    const kafkajs = await startAndJoin(s);
    await deliver(kafkajs, 0, [0, 1], 10);
    await kafkajs.crash(new Error('connection lost'), { retriable: true });
    s.consumer.core.seekQuarantined(tp0, '7');
    kafkajs.restartAfterCrash();
    kafkajs.join({ [TOPIC]: [1] });
    await flushMicrotasks();
    kafkajs.join(both);
    await flushMicrotasks();
    expect(kafkajs.seeks).toEqual([{ topic: TOPIC, partition: 0, offset: '1' }]);
  });

  it('keeps a record that completes after a crash for the rejoin: its commit is retried, never fatal', async () => {
    let finish!: () => void;
    let calls = 0;
    const s = setup({
      handle: () => {
        calls += 1;
        return new Promise<void>((resolve) => (finish = resolve));
      },
    });
    const kafkajs = await startAndJoin(s);
    await deliver(kafkajs, 0, [0], 10);
    expect(await kafkajs.crash(new Error('broker gone'), { retriable: false })).toBe(false);
    finish();
    await s.clock.tick(5_000);
    expect(s.fatal).toEqual([]);
    expect(kafkajs.commits).toEqual([]);
    expect(s.events.filter((e) => e.type === 'commit-failed').length).toBeGreaterThan(0);
    expect(s.consumer.readiness().ready).toBe(false);

    // The supervisor rebuilds; after the join the record comes again, completes from memory, and is committed.
    await s.clock.tick(40_000);
    const rebuilt = s.kafka.latest;
    expect(rebuilt).not.toBe(kafkajs);
    rebuilt.join(both);
    await deliver(rebuilt, 0, [0], 10);
    await s.clock.tick(1_000);
    expect(calls).toBe(1);
    expect(rebuilt.commits.at(-1)).toEqual([{ topic: TOPIC, partition: 0, offset: '1', metadata: 'w1:1:' }]);
    expect(s.fatal).toEqual([]);
  });

  it('holds eachBatch while every partition is paused, until a resume or at most the hold bound on the clock', async () => {
    const s = setup({ invalidOffsets: ['0'] });
    const kafkajs = await startAndJoin(s, { [TOPIC]: [0] });
    const held = await deliver(kafkajs, 0, [0, 1], 10);
    expect(held.hasReturned()).toBe(false);
    await s.clock.tick(HELD_BATCH_MAX_MS - 1);
    expect(held.hasReturned()).toBe(false);
    await s.clock.tick(1);
    expect(held.hasReturned()).toBe(true);

    // A second hold ends at once when the operator lifts the quarantine (the core resumes the partition).
    const again = await deliver(kafkajs, 0, [0], 10);
    expect(again.hasReturned()).toBe(false);
    s.consumer.core.skipQuarantined(tp0);
    await flushMicrotasks();
    expect(again.hasReturned()).toBe(true);
    expect(kafkajs.isPaused(TOPIC, 0)).toBe(false);
  });

  it('ends a held eachBatch at a rebalance', async () => {
    const s = setup({ invalidOffsets: ['0'] });
    const kafkajs = await startAndJoin(s, { [TOPIC]: [0] });
    const held = await deliver(kafkajs, 0, [0], 10);
    kafkajs.rebalancing();
    await flushMicrotasks();
    expect(held.hasReturned()).toBe(true);
  });
});

describe('WardenConsumer over a fake kafkajs: supervision', () => {
  it('leaves a retriable crash to kafkajs: no rebuild while the restarted consumer makes progress', async () => {
    const s = setup();
    const kafkajs = await startAndJoin(s);
    await kafkajs.crash(new Error('connection lost'), { retriable: true });
    kafkajs.restartAfterCrash();
    kafkajs.join(both);
    for (let second = 0; second < 120; second += 10) {
      kafkajs.heartbeat();
      await s.clock.tick(10_000);
    }
    expect(s.kafka.consumers).toHaveLength(1);
    expect(s.consumer.restartCount).toBe(0);
    expect(s.consumer.readiness().ready).toBe(true);
  });

  it('rebuilds the kafkajs consumer restartAfterMs after a crash kafkajs does not restart from', async () => {
    const s = setup();
    const first = await startAndJoin(s);
    await s.clock.tick(10_000);
    first.heartbeat();
    expect(await first.crash(new Error('broker gone during a rebalance'), { retriable: false })).toBe(false);
    await s.clock.tick(40_000); // supervision ticks every 5 s: 50 s after the start, silent for 40 s
    expect(s.kafka.consumers).toHaveLength(1);
    await s.clock.tick(5_000);
    expect(s.kafka.consumers).toHaveLength(2);
    expect(s.consumer.restartCount).toBe(1);
    expect(first.disconnected).toBe(true);
    const second = s.kafka.latest;
    expect(second.subscriptions).toEqual([{ topic: TOPIC, fromBeginning: true }]);
    expect(second.running).toBe(true);
    // The replaced consumer is never restarted by kafkajs.
    expect(await first.config.retry?.restartOnFailure?.(new Error('late'))).toBe(false);
    expect(await second.config.retry?.restartOnFailure?.(new Error('retriable'))).toBe(true);

    second.join(both);
    await flushMicrotasks();
    expect(s.consumer.readiness().ready).toBe(true);
  });

  it('backs off restartAfterMs between failing rebuilds, stays not ready, and never gives up', async () => {
    const s = setup();
    const first = await startAndJoin(s);
    await first.crash(new Error('broker gone'), { retriable: false });
    s.kafka.connectError = new Error('connect ECONNREFUSED 127.0.0.1:9092');
    await s.clock.tick(45_000);
    expect(s.consumer.restartCount).toBe(1);
    expect(s.consumer.readiness()).toEqual({
      ready: false,
      detail: 'consumer crashed: restart failed: connect ECONNREFUSED 127.0.0.1:9092; restarting',
    });
    await s.clock.tick(40_000);
    expect(s.consumer.restartCount).toBe(1);
    await s.clock.tick(5_000);
    expect(s.consumer.restartCount).toBe(2);
    await s.clock.tick(450_000);
    expect(s.consumer.restartCount).toBe(12);
    expect(s.fatal).toEqual([]);

    s.kafka.connectError = null;
    await s.clock.tick(45_000);
    expect(s.consumer.restartCount).toBe(13);
    s.kafka.latest.join(both);
    await flushMicrotasks();
    expect(s.consumer.readiness().ready).toBe(true);
    expect(s.logs.filter((l) => l.msg === 'consumer restart failed; the supervisor retries')).toHaveLength(12);
  });

  it('ignores every event of a replaced consumer and disconnects it again when it shows up', async () => {
    const s = setup();
    const first = await startAndJoin(s);
    await first.crash(new Error('broker gone'), { retriable: false });
    await s.clock.tick(45_000);
    const second = s.kafka.latest;
    second.join({ [TOPIC]: [1] });
    await flushMicrotasks();
    first.disconnected = false;
    first.join(both); // its own restart was under way and joined after all
    first.rebalancing();
    await flushMicrotasks();
    expect(s.consumer.assignment).toEqual([tp1]);
    expect(first.disconnected).toBe(true);
    expect(s.timings.map((t) => t.assignmentAfter)).toEqual([[tp0, tp1], [tp1]]);
  });

  it('reports stalls on every supervision tick while they last', async () => {
    const reports: number[] = [];
    const s = setup({
      handle: () => new Promise<void>(() => undefined),
      stallThresholdMs: 12_000,
      onStalls: (stalls) => reports.push(stalls.length),
    });
    const kafkajs = await startAndJoin(s);
    await deliver(kafkajs, 0, [0], 10);
    for (let i = 0; i < 4; i++) {
      kafkajs.heartbeat();
      await s.clock.tick(5_000);
    }
    expect(reports).toEqual([1, 1]); // ticks at 15 s and 20 s; not at 5 s or 10 s
  });

  it('on a fatal core: pauses every assigned partition, calls onFatal once, reports not ready, no rebuild', async () => {
    const s = setup();
    const kafkajs = await startAndJoin(s);
    kafkajs.commitError = Object.assign(new Error('Not authorized to access group'), {
      type: 'GROUP_AUTHORIZATION_FAILED',
    });
    await deliver(kafkajs, 0, [0], 10);
    await s.clock.tick(1_000);
    expect(s.fatal).toEqual(['commit failed permanently: Error: Not authorized to access group']);
    expect(kafkajs.isPaused(TOPIC, 0)).toBe(true);
    expect(kafkajs.isPaused(TOPIC, 1)).toBe(true);
    expect(s.consumer.readiness()).toEqual({
      ready: false,
      detail: 'consumer core is fatal: commit failed permanently: Error: Not authorized to access group',
    });
    for (let i = 0; i < 10; i++) {
      kafkajs.heartbeat();
      await s.clock.tick(10_000);
    }
    expect(s.fatal).toHaveLength(1);
    expect(s.consumer.restartCount).toBe(0);
  });

  it('stop(): pauses, drains, commits before disconnecting, then nothing runs on the clock', async () => {
    const s = setup();
    const kafkajs = await startAndJoin(s);
    await deliver(kafkajs, 1, [0, 1], 10);
    await s.consumer.stop(1_000);
    expect(kafkajs.commits.at(-1)).toEqual([{ topic: TOPIC, partition: 1, offset: '2', metadata: 'w1:2:' }]);
    expect(kafkajs.disconnected).toBe(true);
    expect(s.kafka.adminClient.connected).toBe(false);
    expect(s.clock.pendingTimers).toBe(0);
    await s.clock.tick(100_000);
    expect(s.kafka.consumers).toHaveLength(1);
    expect(await kafkajs.config.retry?.restartOnFailure?.(new Error('after stop'))).toBe(false);
  });

  it('leaves a shared admin client connected on stop', async () => {
    const kafka = new FakeKafka();
    const admin = kafka.admin();
    await admin.connect();
    const s = setup({ admin });
    await startAndJoin(s);
    await s.consumer.stop(1_000);
    expect(admin.connected).toBe(true);
  });
});

describe('WardenConsumer over a fake kafkajs: readiness', () => {
  it('starting → ready → not ready on silence → ready on the next heartbeat', async () => {
    const s = setup();
    expect(s.consumer.readiness()).toEqual({ ready: false, detail: 'not joined to the group yet' });
    await s.consumer.start();
    const kafkajs = s.kafka.latest;
    kafkajs.fetch();
    expect(s.consumer.readiness().detail).toBe('not joined to the group yet');
    kafkajs.join(both);
    expect(s.consumer.readiness()).toEqual({ ready: true, detail: '2 partition(s) assigned; last progress 0 s ago' });
    await s.clock.tick(20_001);
    expect(s.consumer.readiness()).toEqual({ ready: false, detail: 'no fetch or heartbeat for 20 s' });
    kafkajs.heartbeat();
    expect(s.consumer.readiness().ready).toBe(true);
    await s.consumer.stop(1_000);
  });

  it('not ready from a crash until the restarted consumer joins, though fetches come meanwhile', async () => {
    const s = setup();
    const kafkajs = await startAndJoin(s);
    await kafkajs.crash(Object.assign(new Error('Connection error'), { name: 'KafkaJSConnectionError' }), {
      retriable: true,
    });
    expect(s.consumer.readiness()).toEqual({
      ready: false,
      detail: 'consumer crashed: KafkaJSConnectionError: Connection error; restarting',
    });
    kafkajs.restartAfterCrash();
    kafkajs.fetch();
    expect(s.consumer.readiness().ready).toBe(false);
    kafkajs.join(both);
    expect(s.consumer.readiness().ready).toBe(true);
    await s.consumer.stop(1_000);
  });

  it('a rebalance that outlasts the window turns not ready (no heartbeats while rejoining), its join ready again', async () => {
    const s = setup();
    const kafkajs = await startAndJoin(s);
    kafkajs.rebalancing();
    await s.clock.tick(15_000);
    expect(s.consumer.readiness().ready).toBe(true);
    await s.clock.tick(6_000);
    expect(s.consumer.readiness()).toEqual({ ready: false, detail: 'no fetch or heartbeat for 21 s' });
    kafkajs.join({ [TOPIC]: [0] });
    expect(s.consumer.readiness()).toEqual({ ready: true, detail: '1 partition(s) assigned; last progress 0 s ago' });
    await s.consumer.stop(1_000);
  });
});

describe('WardenConsumer over a fake kafkajs: readiness of held work', () => {
  /** A handler whose calls finish only when the test says so (a produce waiting for acks=all). */
  function heldHandler() {
    const open: Array<() => void> = [];
    const handle = () => new Promise<void>((resolve) => open.push(resolve));
    return {
      handle,
      finishOne: () => open.shift()?.(),
      get open() {
        return open.length;
      },
    };
  }

  async function heartbeatFor(s: Setup, kafkajs: FakeKafkajsConsumer, ms: number) {
    for (let elapsed = 0; elapsed < ms; elapsed += 5_000) {
      await s.clock.tick(Math.min(5_000, ms - elapsed));
      kafkajs.heartbeat();
    }
  }

  it('turns not ready when records are held and none completes for the window, though heartbeats flow', async () => {
    const handler = heldHandler();
    const s = setup({ handle: handler.handle, ordering: 'unordered' });
    const kafkajs = await startAndJoin(s);
    await deliver(kafkajs, 0, [0, 1, 2]);
    await heartbeatFor(s, kafkajs, 20_000);
    expect(s.consumer.readiness().ready).toBe(true);
    await heartbeatFor(s, kafkajs, 1_000);
    expect(s.consumer.readiness()).toEqual({
      ready: false,
      detail: '3 record(s) waiting, none completed for 21 s',
    });
    handler.finishOne();
    await flushMicrotasks();
    expect(s.consumer.readiness().ready).toBe(true);
    expect(s.consumer.restartCount).toBe(0);
    while (handler.open > 0) handler.finishOne();
    await s.consumer.stop(1_000);
  });

  it('stays ready with a slow handler that keeps completing, and when idle for long', async () => {
    const handler = heldHandler();
    const s = setup({ handle: handler.handle, ordering: 'partition' });
    const kafkajs = await startAndJoin(s, { [TOPIC]: [0] });
    await deliver(kafkajs, 0, [0, 1, 2, 3, 4]);
    for (let done = 0; done < 5; done++) {
      await heartbeatFor(s, kafkajs, 15_000);
      expect(s.consumer.readiness().ready).toBe(true);
      handler.finishOne();
      await flushMicrotasks();
    }
    await heartbeatFor(s, kafkajs, 120_000);
    expect(s.consumer.readiness().ready).toBe(true);
    await s.consumer.stop(1_000);
  });

  it('stays ready while one partition is stuck and others complete: that is the stall report, not readiness', async () => {
    const stuck = heldHandler();
    const stalls: number[][] = [];
    const s = setup({
      ordering: 'partition',
      stallThresholdMs: 30_000,
      handle: (value) => (value.startsWith('0@') ? stuck.handle() : Promise.resolve()),
      onStalls: (found) => stalls.push(found.map((stall) => stall.partition)),
    });
    const kafkajs = await startAndJoin(s);
    await deliver(kafkajs, 0, [0]);
    for (let offset = 0; offset < 12; offset++) {
      await heartbeatFor(s, kafkajs, 5_000);
      await deliver(kafkajs, 1, [offset]);
    }
    expect(s.consumer.readiness().ready).toBe(true);
    expect(stalls.at(-1)).toEqual([0]);
    stuck.finishOne();
    await s.consumer.stop(1_000);
  });

  it('stays ready while a quarantined partition holds its records on purpose', async () => {
    const s = setup({ invalidOffsets: ['1'], ordering: 'partition' });
    const kafkajs = await startAndJoin(s);
    await deliver(kafkajs, 1, [0, 1, 2, 3]);
    expect(s.consumer.core.snapshot().partitions.find((p) => p.partition === 1)?.quarantine).not.toBeNull();
    await heartbeatFor(s, kafkajs, 120_000);
    expect(s.consumer.readiness().ready).toBe(true);
    await s.consumer.stop(1_000);
  });
});

describe('WardenConsumer over a fake kafkajs: rebalance timing', () => {
  it('measures every stop on the injected clock: first join, rebalance, crash, rebuild', async () => {
    const s = setup();
    await s.consumer.start();
    const first = s.kafka.latest;
    await s.clock.tick(400);
    first.join(both, 350); // the first join: dated back by kafkajs's duration
    await s.clock.tick(10_000);
    first.heartbeat();
    first.rebalancing();
    await s.clock.tick(2_276);
    first.join({ [TOPIC]: [0] }, 5);
    await s.clock.tick(1_000);
    first.heartbeat();
    await first.crash(new Error('connection lost'), { retriable: true });
    await s.clock.tick(300);
    first.restartAfterCrash();
    first.join({ [TOPIC]: [0] }, 40);
    await first.crash(new Error('broker gone'), { retriable: false });
    await s.clock.tick(50_000); // the supervisor rebuilds at the first tick past 45 s of silence
    s.kafka.latest.join(both, 10);
    const t0 = 1_000_000;
    expect(s.timings.map(({ cause, startedAtMs, endedAtMs }) => ({ cause, startedAtMs, endedAtMs }))).toEqual([
      { cause: 'join', startedAtMs: t0 + 50, endedAtMs: t0 + 400 },
      { cause: 'rebalance', startedAtMs: t0 + 10_400, endedAtMs: t0 + 12_676 },
      { cause: 'join', startedAtMs: t0 + 13_676, endedAtMs: t0 + 13_976 },
      { cause: 'join', startedAtMs: t0 + 13_976, endedAtMs: t0 + 63_976 },
    ]);
    expect(s.timings[1]).toMatchObject({
      groupId: 'g',
      memberId: 'member-1',
      groupProtocol: 'RoundRobinAssigner',
      assignmentBefore: [tp0, tp1],
      assignmentAfter: [tp0],
    });
    await s.consumer.stop(1_000);
  });
});
