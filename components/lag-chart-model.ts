import { partitionKey, rankPartitions, samplerGaps, type Gap } from '@/lib/charts/series-view';
import type { TLagSeries } from '@/lib/schemas/groups';

// The lag charts' data as recharts draws it: one row per bucket, every partition's offset and time lag in it.

/** Colours by the partition's place in the series (its number order), so a partition keeps its colour. */
const PALETTE = [
  '#5fb3f9',
  '#f0883e',
  '#56d364',
  '#d2a8ff',
  '#ffa198',
  '#e3b341',
  '#79c0ff',
  '#ff7b72',
  '#a5d6ff',
  '#7ee787',
  '#f778ba',
  '#bc8cff',
];
export type Series = TLagSeries['partitions'][number];
export interface Model {
  timesMs: number[];
  rows: Array<Record<string, number | null>>;
  ranked: Series[];
  colourOf: Map<string, string>;
  gaps: Gap[];
  hasData: boolean;
  firstDataMs: number | null;
}

export function buildModel(series: TLagSeries): Model {
  const timesMs = series.times.map((t) => Date.parse(t));
  const rows = timesMs.map((t, i) => {
    const row: Record<string, number | null> = { t };
    for (const p of series.partitions) {
      const key = partitionKey(p);
      row[`lag:${key}`] = p.lag[i] ?? null;
      row[`time:${key}`] = p.timeLagMs[i] ?? null;
    }
    row.arrival = series.totals.arrivalRatePerSec[i] ?? null;
    row.consumption = series.totals.consumptionRatePerSec[i] ?? null;
    return row;
  });
  const hasSample = timesMs.map((_, i) => series.partitions.some((p) => p.lag[i] !== null && p.lag[i] !== undefined));
  const first = hasSample.indexOf(true);
  return {
    timesMs,
    rows,
    ranked: rankPartitions(series.partitions),
    colourOf: new Map(series.partitions.map((p, i) => [partitionKey(p), PALETTE[i % PALETTE.length]!])),
    gaps: samplerGaps(timesMs, hasSample),
    hasData: first >= 0,
    firstDataMs: first >= 0 ? timesMs[first]! : null,
  };
}
