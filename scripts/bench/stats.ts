// Pure arithmetic and formatting of benchmark results: percentiles, medians, ratios and the text and
// Markdown tables. No I/O, no clocks.

import * as format from '../../lib/format';

/**
 * Nearest-rank percentile (the smallest value with at least p% of the values at or below it) of values
 * already sorted ascending. Null for an empty list; p outside [0, 100] is a programming error.
 */
export function percentileOfSorted(sorted: ArrayLike<number>, p: number): number | null {
  if (!Number.isFinite(p) || p < 0 || p > 100) throw new RangeError(`percentile must be within [0, 100], got ${p}`);
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

export interface LatencySummary {
  count: number;
  p50: number | null;
  p99: number | null;
  max: number | null;
}

/** p50, p99 and max of unsorted samples; the input is not modified. Non-finite samples are rejected. */
export function summarizeLatency(samples: ArrayLike<number>): LatencySummary {
  const sorted = Float64Array.from(samples as ArrayLike<number>);
  for (const value of sorted) {
    if (!Number.isFinite(value)) throw new RangeError(`latency samples must be finite numbers, got ${value}`);
  }
  sorted.sort();
  return {
    count: sorted.length,
    p50: percentileOfSorted(sorted, 50),
    p99: percentileOfSorted(sorted, 99),
    max: sorted.length === 0 ? null : sorted[sorted.length - 1]!,
  };
}

/** Nearest-rank percentile of unsorted samples in ms, rounded to 0.1 ms; NaN when there are none. */
function percentileMs(samples: ArrayLike<number>, p: number): number {
  const sorted = Float64Array.from(samples).sort();
  return Math.round((percentileOfSorted(sorted, p) ?? Number.NaN) * 10) / 10;
}

/**
 * The percentiles of an operator action's timings that the bench's table and targets read: the round trip's
 * (request to outcome visible through the API) p50, p95 and max, and the applied time's (request to the
 * outcome recorded on the action's row) p50 and p95, in ms rounded to 0.1 ms. The inputs are not modified.
 */
export function roundTripPercentiles(
  roundTrips: ArrayLike<number>,
  applied: ArrayLike<number>,
): { p50Ms: number; p95Ms: number; maxMs: number; appliedP50Ms: number; appliedP95Ms: number } {
  return {
    p50Ms: percentileMs(roundTrips, 50),
    p95Ms: percentileMs(roundTrips, 95),
    maxMs: percentileMs(roundTrips, 100),
    appliedP50Ms: percentileMs(applied, 50),
    appliedP95Ms: percentileMs(applied, 95),
  };
}

/** Median of a non-empty list (mean of the two middle values for an even count); null when empty. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** value / reference, or null when either is missing or the reference is not a positive number. */
export function ratio(value: number | null | undefined, reference: number | null | undefined): number | null {
  if (value === null || value === undefined || reference === null || reference === undefined) return null;
  if (!Number.isFinite(value) || !Number.isFinite(reference) || reference <= 0) return null;
  return value / reference;
}

/** Records per second over a window; null when the window is empty or negative. */
export function recordsPerSecond(records: number, elapsedMs: number): number | null {
  if (!Number.isFinite(elapsedMs) || elapsedMs <= 0 || records < 0) return null;
  return (records * 1000) / elapsedMs;
}

const MISSING = '—';

/** 1234567.8 → "1,234,568": a table's counts are whole; null or non-finite → "—". */
export function formatCount(value: number | null | undefined): string {
  return format.formatCount(
    value === null || value === undefined || !Number.isFinite(value) ? null : Math.round(value),
  );
}

/** Ratios with two decimals ("0.87"); null → "—". */
export function formatRatio(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING;
  return value.toFixed(2);
}

/** Milliseconds with precision that suits the size: "0.04", "3.2", "118"; null → "—". */
export function formatMs(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING;
  if (value < 1) return value.toFixed(2);
  if (value < 100) return value.toFixed(1);
  return Math.round(value).toLocaleString('en-US');
}

/** Bytes as mebibytes with no decimals ("143"); null → "—". */
export function formatMiB(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return MISSING;
  return Math.round(bytes / (1024 * 1024)).toLocaleString('en-US');
}

export type Alignment = 'left' | 'right';

export interface TableColumn {
  header: string;
  align: Alignment;
}

function checkShape(columns: readonly TableColumn[], rows: readonly (readonly string[])[]): void {
  if (columns.length === 0) throw new Error('a table needs at least one column');
  rows.forEach((row, index) => {
    if (row.length !== columns.length) {
      throw new Error(`row ${index} has ${row.length} cells, the table has ${columns.length} columns`);
    }
  });
}

/** A plain-text table with padded columns and a dashed rule under the header, for the terminal. */
export function formatTextTable(columns: readonly TableColumn[], rows: readonly (readonly string[])[]): string {
  checkShape(columns, rows);
  const widths = columns.map((column, index) =>
    Math.max(column.header.length, ...rows.map((row) => row[index]!.length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, index) =>
        columns[index]!.align === 'right' ? cell.padStart(widths[index]!) : cell.padEnd(widths[index]!),
      )
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.header)), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join(
    '\n',
  );
}

/** A GitHub-flavoured Markdown table; `|` inside cells is escaped. */
export function formatMarkdownTable(columns: readonly TableColumn[], rows: readonly (readonly string[])[]): string {
  checkShape(columns, rows);
  const escape = (cell: string) => cell.replaceAll('|', '\\|');
  const line = (cells: readonly string[]) => `| ${cells.map(escape).join(' | ')} |`;
  const rule = `| ${columns.map((c) => (c.align === 'right' ? '---:' : '---')).join(' | ')} |`;
  return [line(columns.map((c) => c.header)), rule, ...rows.map(line)].join('\n');
}
