// The soak's verdict: slopes after the warm-up against the targets, event-loop delay, table and topic
// growth, the dashboard API's p95 and the alerts' delivery. Pure, so each rule is unit-tested on plain data.
import { bytesSlopeMiBPerMinute } from '../lib/slope';
import { percentile, type ProcessSample, type SystemSample } from './samples';

export interface SoakTargets {
  heapSlopeMiBPerMinute: number;
  rssSlopeMiBPerMinute: number;
  loopP99Ms: number;
  apiP95Ms: number;
  /** A table growing faster than this after the warm-up must be explained (by its retention) or fails. */
  tableSlopeMiBPerMinute: number;
}

export const SOAK_TARGETS: SoakTargets = {
  heapSlopeMiBPerMinute: 0.5,
  rssSlopeMiBPerMinute: 1,
  loopP99Ms: 50,
  apiP95Ms: 150,
  tableSlopeMiBPerMinute: 0.05,
};

/**
 * Tables that grow by design at any steady load, and what bounds them. A table not named here must stay
 * within SoakTargets.tableSlopeMiBPerMinute after the warm-up.
 */
export const TABLE_GROWTH_EXPLAINED: Readonly<Record<string, string>> = {
  stored_document: "the pipeline's output: one row per valid record, growing with the traffic by design",
  lag_sample: 'raw lag samples, kept SAMPLER_RETENTION_DAYS (default 7) days, then their day partition is dropped',
  lag_rollup: 'minute rollups, kept SAMPLER_ROLLUP_RETENTION_DAYS (default 90) days',
  lag_rollup_10m: 'ten-minute rollups, kept SAMPLER_ROLLUP_RETENTION_DAYS (default 90) days',
  rebalance_event: 'rebalance history (every restart is one), kept SAMPLER_ROLLUP_RETENTION_DAYS',
  sampler_gap: 'sampler gaps (a broker or database outage is one), kept SAMPLER_ROLLUP_RETENTION_DAYS',
  commit_observation:
    'the newest WINDOW_CAPACITY (10) commits per group partition: its live rows are bounded, its bytes grow with the dead rows each write trims until autovacuum reclaims them',
  operator_action: "the audit log: one row per operator action (the soak's skips), history by design",
  redrive_job: "redrive history: one row per redrive (the soak's redrives)",
  redriven_record: 'one row per redriven record, history by design',
};

/** Topics are reported, not judged: their cleanup (retention, compaction) acts on closed segments only. */
export const TOPIC_NOTE = "bounded by the topic's cleanup policy, which acts on closed segments";

export interface SoakWindows {
  /** Samples before this (from the start of the traffic) are the warm-up and left out of every slope. */
  warmupMs: number;
  /** A process's own first minutes are its warm-up too: a restarted worker is judged from then on. */
  processWarmupMs: number;
  /** A process is judged only with samples spanning at least this long after both warm-ups. */
  minSeriesMs: number;
  /** API requests in these windows (a database or broker outage) are left out of the p95. */
  apiExcluded: ReadonlyArray<{ fromMs: number; toMs: number }>;
}

export interface ProcessRow {
  process: string;
  /** Samples after both warm-ups, and the minutes they span. */
  samples: number;
  spanMinutes: number;
  judged: boolean;
  rssSlopeMiBPerMinute: number | null;
  heapSlopeMiBPerMinute: number | null;
  loopP99MaxMs: number | null;
  rssLastMiB: number | null;
  handles: { first: number; last: number } | null;
}

export interface SizeRow {
  name: string;
  kind: 'table' | 'topic';
  firstMiB: number;
  lastMiB: number;
  slopeMiBPerMinute: number | null;
  /** Why growth is expected, when it is; null for a table that must stay flat. */
  explanation: string | null;
  /** true: bounded or explained; false: grows without an explanation; null: reported only (topics). */
  passed: boolean | null;
}

export interface SoakCheck {
  check: string;
  measured: string;
  target: string;
  /** null: not judged (too few samples, or not measurable for this process). */
  passed: boolean | null;
}

export interface SoakJudgement {
  processes: ProcessRow[];
  sizes: SizeRow[];
  api: { requests: number; errors: number; p95Ms: number | null; excludedRequests: number };
  pgConnectionsMax: number | null;
  checks: SoakCheck[];
}

const mib = (bytes: number) => Math.round((bytes / 1_048_576) * 10) / 10;

export function judgeSoak(
  processSamples: readonly ProcessSample[],
  systemSamples: readonly SystemSample[],
  windows: SoakWindows,
  targets: SoakTargets = SOAK_TARGETS,
): SoakJudgement {
  const checks: SoakCheck[] = [];
  const names = [...new Set(processSamples.map((s) => s.process))];
  const processes = names.map((name): ProcessRow => {
    const kept = processSamples.filter(
      (s) => s.process === name && s.atMs >= windows.warmupMs && s.atMs - s.startedAtMs >= windows.processWarmupMs,
    );
    const span = kept.length > 0 ? kept.at(-1)!.atMs - kept[0]!.atMs : 0;
    const series = (pick: (s: ProcessSample) => number | null) =>
      kept.flatMap((s) => (pick(s) === null ? [] : [{ atMs: s.atMs, value: pick(s)! }]));
    const rss = series((s) => s.rssBytes);
    const heap = series((s) => s.heapUsedBytes);
    const loop = series((s) => s.loopP99Seconds);
    const handles = series((s) => s.activeHandles);
    return {
      process: name,
      samples: kept.length,
      spanMinutes: Math.round((span / 60_000) * 10) / 10,
      judged: span >= windows.minSeriesMs && kept.length >= 4,
      rssSlopeMiBPerMinute: bytesSlopeMiBPerMinute(rss),
      heapSlopeMiBPerMinute: bytesSlopeMiBPerMinute(heap),
      loopP99MaxMs: loop.length === 0 ? null : Math.round(Math.max(...loop.map((p) => p.value)) * 1_000 * 10) / 10,
      rssLastMiB: rss.length === 0 ? null : mib(rss.at(-1)!.value),
      handles: handles.length === 0 ? null : { first: handles[0]!.value, last: handles.at(-1)!.value },
    };
  });
  for (const row of processes) {
    const why = row.judged ? null : `not judged: ${row.samples} samples over ${row.spanMinutes} min after warm-up`;
    const judged = (value: number | null, limit: number) => (row.judged && value !== null ? value < limit : null);
    checks.push({
      check: `${row.process} RSS slope`,
      measured: why ?? `${row.rssSlopeMiBPerMinute ?? '-'} MiB/min`,
      target: `< ${targets.rssSlopeMiBPerMinute} MiB/min`,
      passed: judged(row.rssSlopeMiBPerMinute, targets.rssSlopeMiBPerMinute),
    });
    checks.push({
      check: `${row.process} heap slope`,
      measured: why ?? (row.heapSlopeMiBPerMinute === null ? 'not sampled' : `${row.heapSlopeMiBPerMinute} MiB/min`),
      target: `< ${targets.heapSlopeMiBPerMinute} MiB/min`,
      passed: judged(row.heapSlopeMiBPerMinute, targets.heapSlopeMiBPerMinute),
    });
    checks.push({
      check: `${row.process} event-loop delay p99 (max)`,
      measured: row.loopP99MaxMs === null ? 'not sampled' : `${row.loopP99MaxMs} ms`,
      target: `< ${targets.loopP99Ms} ms`,
      passed: row.loopP99MaxMs === null || row.samples === 0 ? null : row.loopP99MaxMs < targets.loopP99Ms,
    });
  }

  const afterWarmup = systemSamples.filter((s) => s.atMs >= windows.warmupMs);
  const sizes: SizeRow[] = [];
  for (const kind of ['table', 'topic'] as const) {
    const of = (s: SystemSample) => (kind === 'table' ? s.tables : s.topics);
    const keys = [...new Set(afterWarmup.flatMap((s) => Object.keys(of(s))))].sort();
    for (const name of keys) {
      const points = afterWarmup.flatMap((s) =>
        of(s)[name] === undefined ? [] : [{ atMs: s.atMs, value: of(s)[name]! }],
      );
      const slope = bytesSlopeMiBPerMinute(points);
      const explanation = kind === 'topic' ? TOPIC_NOTE : (TABLE_GROWTH_EXPLAINED[name] ?? null);
      const flat = slope === null || slope <= targets.tableSlopeMiBPerMinute;
      sizes.push({
        name,
        kind,
        firstMiB: mib(points[0]?.value ?? 0),
        lastMiB: mib(points.at(-1)?.value ?? 0),
        slopeMiBPerMinute: slope,
        explanation,
        passed: kind === 'topic' ? null : flat || explanation !== null,
      });
    }
  }
  const growing = sizes.filter((s) => s.passed === false);
  checks.push({
    check: 'tables bounded after warm-up',
    measured:
      growing.length === 0
        ? `${sizes.filter((s) => s.kind === 'table').length} tables flat or explained`
        : `unexplained growth: ${growing.map((s) => `${s.name} ${s.slopeMiBPerMinute} MiB/min`).join(', ')}`,
    target: `slope <= ${targets.tableSlopeMiBPerMinute} MiB/min or explained by retention`,
    passed: afterWarmup.length < 2 ? null : growing.length === 0,
  });

  const excluded = (atMs: number) => windows.apiExcluded.some((w) => atMs >= w.fromMs && atMs <= w.toMs);
  const apiSamples = afterWarmup.filter((s) => !excluded(s.atMs));
  const durations = apiSamples.flatMap((s) => s.apiMs);
  const api = {
    requests: durations.length,
    errors: apiSamples.reduce((sum, s) => sum + s.apiErrors, 0),
    p95Ms: percentile(durations, 95),
    excludedRequests: afterWarmup.filter((s) => excluded(s.atMs)).reduce((n, s) => n + s.apiMs.length + s.apiErrors, 0),
  };
  checks.push({
    check: 'dashboard API p95 (outside database and broker outages)',
    measured:
      api.p95Ms === null
        ? 'no requests'
        : `${Math.round(api.p95Ms)} ms over ${api.requests} requests, ${api.errors} failed`,
    target: `< ${targets.apiP95Ms} ms, none failed`,
    passed: api.p95Ms === null ? null : api.p95Ms < targets.apiP95Ms && api.errors === 0,
  });
  const connections = afterWarmup.flatMap((s) => (s.pgConnections === null ? [] : [s.pgConnections]));
  return {
    processes,
    sizes,
    api,
    pgConnectionsMax: connections.length === 0 ? null : Math.max(...connections),
    checks,
  };
}

/** One row of alert_notification, as the soak reads it at the end. */
export interface NotificationRow {
  id: string;
  receiver: string;
  kind: string;
  status: string;
  attempts: number;
  lastError: string | null;
}

/**
 * Every alert delivered or explained: each webhook notification is delivered, or silenced/skipped (a status
 * that says why), or still pending with a retry due (the run ended during a retry, its last error named);
 * a failed one fails the check, and so does a receiver that got fewer alerts than were recorded delivered.
 */
export function judgeAlerts(
  notifications: readonly NotificationRow[],
  received: number,
): SoakCheck & { notes: string[] } {
  const webhook = notifications.filter((n) => n.receiver === 'webhook');
  const count = (status: string) => webhook.filter((n) => n.status === status).length;
  const notes = webhook
    .filter((n) => n.status !== 'delivered')
    .map(
      (n) =>
        `notification ${n.id} (${n.kind}) ${n.status} after ${n.attempts} attempt(s)` +
        (n.lastError ? `: ${n.lastError.slice(0, 160)}` : ''),
    );
  const delivered = count('delivered');
  return {
    check: 'alerts delivered or explained',
    measured:
      `${webhook.length} notifications: ${delivered} delivered, ${count('pending')} pending, ${count('failed')} failed, ` +
      `${count('silenced') + count('skipped')} silenced/skipped; receiver got ${received}`,
    target: 'none failed; receiver got every delivered one',
    passed: count('failed') === 0 && received >= delivered,
    notes,
  };
}
