// The soak's printed report: the checks, then per process, per table and topic, and the fault schedule.
import type { SoakFault } from './schedule';
import { describeFault } from './schedule';
import type { SoakCheck, SoakJudgement } from './verdict';

export interface FaultOutcome {
  fault: SoakFault;
  /** When it began and ended, from the start of the traffic. */
  startedMs: number;
  endedMs: number;
  /** What it did, or why it could not be done. */
  detail: string;
  error: string | null;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const verdictOf = (passed: boolean | null) => (passed === null ? 'n/a' : passed ? 'PASS' : 'FAIL');
const show = (value: number | null, unit = '') => (value === null ? '-' : `${value}${unit}`);

export function formatSoakReport(
  checks: readonly SoakCheck[],
  judgement: SoakJudgement,
  faults: readonly FaultOutcome[],
): string {
  const seconds = (ms: number) => `${Math.round(ms / 1_000)}`;
  return [
    table(
      ['check', 'measured', 'target', 'result'],
      checks.map((c) => [c.check, c.measured, c.target, verdictOf(c.passed)]),
    ),
    '',
    table(
      ['process', 'samples', 'minutes', 'RSS MiB/min', 'heap MiB/min', 'loop p99 max', 'RSS MiB (last)', 'handles'],
      judgement.processes.map((p) => [
        p.process,
        String(p.samples),
        String(p.spanMinutes),
        show(p.rssSlopeMiBPerMinute),
        show(p.heapSlopeMiBPerMinute),
        show(p.loopP99MaxMs, ' ms'),
        show(p.rssLastMiB),
        p.handles ? `${p.handles.first} → ${p.handles.last}` : '-',
      ]),
    ),
    '',
    table(
      ['table / topic', 'MiB first → last', 'MiB/min', 'result', 'why it may grow'],
      judgement.sizes.map((s) => [
        `${s.kind === 'topic' ? 'topic ' : ''}${s.name}`,
        `${s.firstMiB} → ${s.lastMiB}`,
        show(s.slopeMiBPerMinute),
        s.passed === null ? 'reported' : s.passed ? 'ok' : 'FAIL',
        s.explanation ?? '',
      ]),
    ),
    '',
    `Postgres connections (max after warm-up): ${show(judgement.pgConnectionsMax)}; dashboard API: ${judgement.api.requests} requests judged, ${judgement.api.excludedRequests} during outages left out`,
    '',
    table(
      ['start s', 'end s', 'fault', 'outcome'],
      faults.map((f) => [
        seconds(f.startedMs),
        seconds(f.endedMs),
        describeFault(f.fault),
        f.error === null ? f.detail : `FAILED: ${f.error}`,
      ]),
    ),
  ].join('\n');
}
