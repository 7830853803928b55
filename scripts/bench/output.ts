import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KEYED_RETRY_BACKOFF, KEYED_RETRY_ERROR_RATE, type BenchMode, type BenchSizes } from './plan';
import {
  formatCount,
  formatMarkdownTable,
  formatMiB,
  formatMs,
  formatRatio,
  formatTextTable,
  type TableColumn,
} from './stats';
import type { Row, TargetCheck, WorkloadRuns } from './summary';
import type { PreparedTopic } from './topics';

// The results table (terminal and Markdown) and the JSON file under bench-results/ (git-ignored).

const COLUMNS: TableColumn[] = [
  { header: '#', align: 'left' },
  { header: 'workload', align: 'left' },
  { header: 'records', align: 'right' },
  { header: 'records/s', align: 'right' },
  { header: 'ratio to (1)', align: 'right' },
  { header: 'p50 ms', align: 'right' },
  { header: 'p99 ms', align: 'right' },
  { header: 'peak RSS MiB', align: 'right' },
  { header: 'notes', align: 'left' },
];

function cells(row: Row): string[] {
  return [
    row.id,
    row.title,
    formatCount(row.records),
    formatCount(row.recordsPerSec),
    formatRatio(row.ratioToRaw),
    formatMs(row.p50Ms),
    formatMs(row.p99Ms),
    formatMiB(row.peakRssBytes),
    row.notes,
  ];
}

export function textTable(rows: readonly Row[]): string {
  return formatTextTable(COLUMNS, rows.map(cells));
}

export function markdownTable(rows: readonly Row[]): string {
  return formatMarkdownTable(COLUMNS, rows.map(cells));
}

/** What the latency columns measure, printed under the table. */
export const LATENCY_NOTE =
  'p50/p99: time a record spent inside the consumer (batch handed over or admitted → its handler resolved) on the pre-produced ' +
  'topics; (5), (5p), (5s) and (5z): end to end, producer timestamp → handler succeeded; (9): admitted → result acknowledged. ' +
  "Peak RSS: the child process's maxRSS (Node, tsx and kafkajs included). Throughput: first fetch → last commit; (5): first produce → last completion. " +
  'Parallel Consumer rows (…pc): first partition assignment → last commit, latency poll returned the record → handler returned, peak RSS the JVM’s VmHWM. ' +
  '(10): records = lag_sample rows per round, p50/p99 = LagSampler.sampleOnce() round time (read, compute, exact reads when due, writes), the first round excluded; ' +
  '(11a)/(11b): records = timed calls, p50/p99 = the lib/server function plus its JSON body (Response.json), not over HTTP; ' +
  '(11o): records = timed requests, p50/p99 = request → last body byte over HTTP from the built dashboard (next start); ' +
  '(12)/(13): records = timed actions, p50/p99 = request → applied and the card gone through the API; ' +
  "(14): records = states published in the window, no latency; (15): as (2), the control plane's 'on' runs (its 'off' runs in the notes).";

export function targetLines(checks: readonly TargetCheck[]): string {
  const verdict = (pass: boolean | null) => (pass === null ? 'n/a ' : pass ? 'PASS' : 'MISS');
  return checks.map((c) => `${verdict(c.pass)}  ${c.target}: ${c.measured}`).join('\n');
}

export interface Report {
  dir: string;
  stamp: string;
  command: string;
  startedAt: Date;
  mode: BenchMode;
  sizes: BenchSizes;
  commitIntervalMs: number;
  machineLoad: { start: number; max: number; end: number };
  topics: PreparedTopic[];
  entries: WorkloadRuns[];
  rows: Row[];
  targets: TargetCheck[];
  log: (line: string) => void;
}

/**
 * Prints the table with its context (command, machine, load) and the target checks, and writes
 * `<dir>/bench-<stamp>.json` (every run's raw measurement) and `<dir>/bench-<stamp>.md` (for the README).
 */
export function printAndSaveReport(report: Report): void {
  const cpus = os.cpus();
  const { machineLoad: load } = report;
  const header = [
    `${report.command} · ${report.startedAt.toISOString()} · ${cpus.length} × ${cpus[0]?.model ?? 'cpu'} · Node ${process.version} · kafkajs 2.2.4`,
    `load average (1 min) start ${load.start.toFixed(2)}, max ${load.max.toFixed(2)}, end ${load.end.toFixed(2)} · ` +
      `Warden commitIntervalMs ${report.commitIntervalMs}, other settings at their defaults unless the workload says`,
    ...(report.mode === 'quick'
      ? [
          '--quick: a smoke test; runs this short are dominated by start-up (JIT, first fetches), so its verdicts only say that everything ran',
        ]
      : []),
  ];
  console.log(
    `\n${header.join('\n')}\n\n${textTable(report.rows)}\n${LATENCY_NOTE}\n\n${targetLines(report.targets)}\n`,
  );

  mkdirSync(report.dir, { recursive: true });
  const json = path.join(report.dir, `bench-${report.stamp}.json`);
  const data = {
    command: report.command,
    startedAt: report.startedAt.toISOString(),
    mode: report.mode,
    sizes: report.sizes,
    machine: {
      cpus: cpus.length,
      cpuModel: cpus[0]?.model ?? null,
      totalMemBytes: os.totalmem(),
      node: process.version,
      loadAverage: load,
    },
    settings: {
      commitIntervalMs: report.commitIntervalMs,
      keyedRetryBackoff: KEYED_RETRY_BACKOFF,
      keyedRetryErrorRate: KEYED_RETRY_ERROR_RATE,
    },
    topics: report.topics.map((t) => ({
      layout: t.layout,
      topic: t.topic,
      endOffsets: t.endOffsets,
      reused: t.reused,
    })),
    rows: report.rows,
    targets: report.targets,
    workloads: report.entries.map((e) => ({ id: e.plan.id, plan: e.plan, error: e.error ?? null, runs: e.runs })),
  };
  writeFileSync(json, `${JSON.stringify(data, null, 2)}\n`);
  const targets = targetLines(report.targets)
    .split('\n')
    .map((line) => `- ${line}`)
    .join('\n');
  writeFileSync(
    path.join(report.dir, `bench-${report.stamp}.md`),
    `${header.join('  \n')}\n\n${markdownTable(report.rows)}\n\n${LATENCY_NOTE}\n\n${targets}\n`,
  );
  report.log(`saved ${path.relative(process.cwd(), json)} and its .md`);
}
