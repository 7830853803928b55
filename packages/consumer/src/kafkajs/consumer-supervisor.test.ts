import { describe, expect, it } from 'vitest';
import { ManualClock } from '../core/testing/fake-clock.js';
import { ConsumerSupervisor } from './consumer-supervisor.js';

/** A supervisor over a scripted silence: progress() marks the loop alive, rebuild() resolves or rejects. */
function supervised(options: { rebuild?: () => Promise<void>; restartAfterMs?: number } = {}) {
  const clock = new ManualClock(0);
  let lastProgressMs: number | null = null;
  const ticks: number[] = [];
  const rebuildsAt: number[] = [];
  const failures: unknown[] = [];
  const logs: string[] = [];
  const log = (_: object, msg?: string) => logs.push(msg ?? '');
  const supervisor = new ConsumerSupervisor({
    clock,
    intervalMs: 5_000,
    restartAfterMs: options.restartAfterMs ?? 45_000,
    silentMs: () => (lastProgressMs === null ? null : clock.now() - lastProgressMs),
    onTick: () => ticks.push(clock.now()),
    rebuild: () => {
      rebuildsAt.push(clock.now());
      lastProgressMs = clock.now(); // a rebuild restarts the silence window, as the consumer's does
      return options.rebuild ? options.rebuild() : Promise.resolve();
    },
    onRebuildFailed: (error) => failures.push(error),
    logger: { info: log, warn: log, error: log },
  });
  return {
    clock,
    supervisor,
    ticks,
    rebuildsAt,
    failures,
    logs,
    progress: () => {
      lastProgressMs = clock.now();
    },
  };
}

describe('ConsumerSupervisor', () => {
  it('ticks every interval on the injected clock and never rebuilds before the first progress', async () => {
    const s = supervised();
    s.supervisor.start();
    await s.clock.tick(120_000);
    expect(s.ticks).toEqual(Array.from({ length: 24 }, (_, i) => (i + 1) * 5_000));
    expect(s.rebuildsAt).toEqual([]);
    expect(s.supervisor.restartCount).toBe(0);
  });

  it('rebuilds at the first tick after restartAfterMs of silence, and not while progress continues', async () => {
    const s = supervised();
    s.supervisor.start();
    s.progress();
    await s.clock.tick(40_000);
    s.progress(); // heartbeat at 40 s
    await s.clock.tick(40_000);
    expect(s.rebuildsAt).toEqual([]);
    await s.clock.tick(5_000); // 85 s: silent for exactly 45 s
    expect(s.rebuildsAt).toEqual([85_000]);
    expect(s.supervisor.restartCount).toBe(1);
    expect(s.logs).toContain('consumer made no progress; rebuilding the kafkajs consumer');
  });

  it('backs off restartAfterMs after a failed rebuild, reports every failure and never gives up', async () => {
    const error = new Error('connect ECONNREFUSED');
    const s = supervised({ rebuild: () => Promise.reject(error) });
    s.supervisor.start();
    s.progress();
    await s.clock.tick(200_000);
    expect(s.rebuildsAt).toEqual([45_000, 90_000, 135_000, 180_000]);
    expect(s.failures).toEqual([error, error, error, error]);
    expect(s.logs.filter((msg) => msg === 'consumer restart failed; the supervisor retries')).toHaveLength(4);
  });

  it('runs no tick while a rebuild is under way, and stop() waits for it', async () => {
    let finishRebuild!: () => void;
    const s = supervised({ rebuild: () => new Promise<void>((resolve) => (finishRebuild = resolve)) });
    s.supervisor.start();
    s.progress();
    await s.clock.tick(45_000);
    expect(s.rebuildsAt).toEqual([45_000]);
    const ticksBefore = s.ticks.length;
    await s.clock.tick(60_000);
    expect(s.ticks).toHaveLength(ticksBefore);
    expect(s.rebuildsAt).toHaveLength(1);

    let stopped = false;
    const stopping = s.supervisor.stop().then(() => (stopped = true));
    await s.clock.tick(0);
    expect(stopped).toBe(false);
    finishRebuild();
    await stopping;
    expect(stopped).toBe(true);
    expect(s.clock.pendingTimers).toBe(0);
  });

  it('does nothing after stop()', async () => {
    const s = supervised();
    s.supervisor.start();
    s.progress();
    await s.clock.tick(10_000);
    await s.supervisor.stop();
    await s.clock.tick(100_000);
    expect(s.ticks).toEqual([5_000, 10_000]);
    expect(s.rebuildsAt).toEqual([]);
  });
});
