// Number formatting for advisor summaries and advice details. Fixed to en-US so text is stable across hosts.

import { formatDuration } from '../lag/format-duration';

const NUMBER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** 30000 -> "30,000"; 12.345 -> "12.3"; rates and counts are shown with at most one decimal. */
export function formatNumber(value: number): string {
  return NUMBER.format(value);
}

/** 300 -> "300/s". */
export function formatRate(perSec: number): string {
  return `${formatNumber(perSec)}/s`;
}

/** "partition 2", "partitions 2 and 5", "partitions 1, 2 and 5". */
export function formatPartitionList(partitions: readonly number[]): string {
  if (partitions.length === 1) return `partition ${partitions[0]}`;
  const head = partitions.slice(0, -1).join(', ');
  return `partitions ${head} and ${partitions[partitions.length - 1]}`;
}

/** "1 consumer", "3 consumers". */
export function plural(count: number, noun: string): string {
  return `${formatNumber(count)} ${noun}${count === 1 ? '' : 's'}`;
}

/** 800 -> "800 ms"; 1500 -> "1.5 s"; longer durations as formatDuration does ("6 min 40 s"). */
export function formatMillis(ms: number): string {
  if (ms < 1000) return `${formatNumber(ms)} ms`;
  const seconds = Math.round(ms / 100) / 10;
  if (seconds < 60) return `${formatNumber(seconds)} s`;
  return formatDuration(ms / 1000);
}

/** 0.953 -> "95%". */
export function formatPercent(fraction: number): string {
  return `${Math.round(fraction * 100)}%`;
}
