import type { ScenarioReport } from './run-verification';
import type { FaultStall } from './stalls';
import type { VerifiableToolsReport } from './verifiable-tools';

/** A plain-text table of scenario verdicts, then the notes that explain any failure. */
export function formatReports(reports: readonly ScenarioReport[]): string {
  const header = [
    'scenario',
    'result',
    'seconds',
    'produced',
    'stored',
    'lost',
    'order viol.',
    'duplicates',
    'bad',
    'dead-lettered',
    'quarantined',
    'dropped',
    'commit viol.',
    'longest stop s',
  ];
  const rows = reports.map((r) => [
    r.scenario,
    r.passed ? 'PASS' : 'FAIL',
    String(r.seconds),
    String(r.verdict.produced),
    String(r.verdict.stored),
    String(r.verdict.lost.length),
    String(r.verdict.orderViolations),
    String(r.verdict.duplicates),
    String(r.verdict.badRecords),
    String(r.verdict.deadLettered),
    String(r.verdict.quarantined),
    String(r.verdict.silentlyDropped.length),
    String(r.verdict.commitViolations.length + r.checkpoints.reduce((sum, c) => sum + c.commitViolations, 0)),
    longestStop(r.faults),
  ]);
  return table(header, rows, reports);
}

/** Kafka's own tools through the same fault: acked and consumed counts, beside Warden's table. */
export function formatToolsReports(reports: readonly VerifiableToolsReport[]): string {
  const header = [
    'kafka tools',
    'result',
    'seconds',
    'attempted',
    'acked',
    'send errors',
    'consumed',
    'lost',
    'duplicates',
    'longest stop s',
  ];
  const rows = reports.map((r) => [
    r.scenario,
    r.passed ? 'PASS' : 'FAIL',
    String(r.seconds),
    String(r.tally.attempted),
    String(r.tally.acked),
    String(r.tally.sendErrors),
    String(r.tally.consumed),
    String(r.tally.lost.length),
    String(r.tally.duplicates),
    longestStop(r.faults),
  ]);
  return table(header, rows, reports);
}

const longestStop = (faults: readonly FaultStall[]) =>
  faults.length > 0 ? String(Math.max(...faults.map((f) => f.longestStopSeconds))) : '-';

/** Aligned columns, then each report's faults with their longest stop, then the notes that explain any failure. */
function table(
  header: string[],
  rows: string[][],
  reports: ReadonlyArray<{ scenario: string; faults: readonly FaultStall[]; notes: readonly string[] }>,
): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  const notes = reports.flatMap((r) => r.notes.map((n) => `  ${r.scenario}: ${n}`));
  const faults = reports.flatMap((r) =>
    r.faults.map((f) => `  ${r.scenario}: at ${f.atSeconds} s ${f.fault}: longest stop ${f.longestStopSeconds} s`),
  );
  return [
    line(header),
    ...rows.map(line),
    ...(faults.length > 0 ? ['faults (longest stop in processing until the next fault):', ...faults] : []),
    ...(notes.length > 0 ? ['notes:', ...notes] : []),
  ].join('\n');
}
