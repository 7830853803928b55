import { describe, expect, it } from 'vitest';
import type { ProcessSample, SystemSample } from './samples';
import { judgeAlerts, judgeSoak, type SoakWindows } from './verdict';

const MiB = 1_048_576;
const WINDOWS: SoakWindows = { warmupMs: 60_000, processWarmupMs: 60_000, minSeriesMs: 120_000, apiExcluded: [] };

/** Samples every 10 s for `minutes`, memory growing by `mibPerMinute`. */
function processSeries(process: string, minutes: number, mibPerMinute: number, startedAtMs = 0): ProcessSample[] {
  return Array.from({ length: minutes * 6 }, (_, i) => {
    const atMs = startedAtMs + i * 10_000;
    const grown = (mibPerMinute * atMs) / 60_000;
    return {
      atMs,
      process,
      startedAtMs,
      rssBytes: (200 + grown) * MiB,
      heapUsedBytes: (50 + grown / 4) * MiB,
      loopP99Seconds: 0.011,
      activeHandles: 12,
    };
  });
}

function systemSeries(minutes: number, tableMiBPerMinute: Record<string, number>, apiMs = 40): SystemSample[] {
  return Array.from({ length: minutes * 6 }, (_, i) => ({
    atMs: i * 10_000,
    pgConnections: 12,
    tables: Object.fromEntries(
      Object.entries(tableMiBPerMinute).map(([name, slope]) => [name, (1 + (slope * i) / 6) * MiB]),
    ),
    topics: { 'warden-control.commands': 1_000 + i },
    apiMs: [apiMs, apiMs + 5, apiMs + 10],
    apiErrors: 0,
  }));
}

const failing = (checks: ReturnType<typeof judgeSoak>['checks']) =>
  checks.filter((c) => c.passed === false).map((c) => c.check);

describe('judgeSoak', () => {
  it('passes flat processes, bounded tables and a fast API', () => {
    const judgement = judgeSoak(
      processSeries('worker-0', 10, 0.1),
      systemSeries(10, { alert: 0, stored_document: 2 }),
      WINDOWS,
    );
    expect(failing(judgement.checks)).toEqual([]);
    expect(judgement.processes[0]!.rssSlopeMiBPerMinute).toBeCloseTo(0.1, 2);
    expect(judgement.sizes.find((s) => s.name === 'stored_document')!.explanation).toMatch(/output/);
  });

  it('fails a leaking process: RSS at 2 MiB/min and heap at 0.5 MiB/min', () => {
    const judgement = judgeSoak(processSeries('worker-0', 10, 2), systemSeries(10, {}), WINDOWS);
    expect(failing(judgement.checks)).toEqual(['worker-0 RSS slope', 'worker-0 heap slope']);
  });

  it('leaves the warm-up out of the slope', () => {
    const samples = processSeries('worker-0', 10, 0).map((s) =>
      s.atMs < 60_000 ? { ...s, rssBytes: s.rssBytes! - 100 * MiB, heapUsedBytes: s.heapUsedBytes! - 50 * MiB } : s,
    );
    expect(failing(judgeSoak(samples, [], WINDOWS).checks)).toEqual([]);
    expect(failing(judgeSoak(samples, [], { ...WINDOWS, warmupMs: 0, processWarmupMs: 0 }).checks)).toContain(
      'worker-0 RSS slope',
    );
  });

  it('does not judge a restarted process that lived too briefly after its warm-up', () => {
    const judgement = judgeSoak(processSeries('worker-0 (2)', 2, 5, 400_000), [], WINDOWS);
    expect(judgement.processes[0]!.judged).toBe(false);
    expect(judgement.checks.find((c) => c.check === 'worker-0 (2) RSS slope')!.passed).toBeNull();
  });

  it('fails a slow event loop, an unexplained growing table and a slow API', () => {
    const slowLoop = processSeries('worker-1', 10, 0).map((s) => ({ ...s, loopP99Seconds: 0.08 }));
    const judgement = judgeSoak(slowLoop, systemSeries(10, { alert_notification: 1 }, 200), WINDOWS);
    expect(failing(judgement.checks)).toEqual([
      'worker-1 event-loop delay p99 (max)',
      'tables bounded after warm-up',
      'dashboard API p95 (outside database and broker outages)',
    ]);
  });

  it('leaves API requests during outages out of the p95', () => {
    const system = systemSeries(10, {}).map((s) =>
      s.atMs >= 200_000 && s.atMs <= 330_000 ? { ...s, apiMs: [5_000] } : s,
    );
    expect(judgeSoak([], system, WINDOWS).api.p95Ms).toBeGreaterThan(150);
    const excluded = judgeSoak([], system, { ...WINDOWS, apiExcluded: [{ fromMs: 200_000, toMs: 330_000 }] });
    expect(excluded.api.p95Ms).toBeLessThan(150);
    expect(excluded.api.excludedRequests).toBe(14);
  });
});

describe('judgeAlerts', () => {
  const row = (status: string, id = '1') => ({
    id,
    receiver: 'webhook',
    kind: 'firing',
    status,
    attempts: 1,
    lastError: null,
  });

  it('passes delivered, pending and silenced notifications, naming the undelivered', () => {
    const check = judgeAlerts([row('delivered'), row('pending', '2'), row('silenced', '3')], 1);
    expect(check.passed).toBe(true);
    expect(check.notes).toHaveLength(2);
  });

  it('fails a failed notification and a receiver that got fewer than were delivered', () => {
    expect(judgeAlerts([row('failed')], 0).passed).toBe(false);
    expect(judgeAlerts([row('delivered'), row('delivered', '2')], 1).passed).toBe(false);
  });
});
