// The soak's sampling, every 10 s: each worker's /metrics, the dashboard's resident memory from /proc, the
// database's connections and table sizes, the control topics' bytes on disk and a few dashboard API calls.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { bearer, VIEWER_TOKEN } from '../../test-support/credentials';
import { workerReadings, type ProcessSample, type SystemSample } from './samples';

/** A worker's readings from its /metrics; null when it does not answer (killed, restarting). */
export async function sampleWorker(port: string): Promise<ReturnType<typeof workerReadings> | null> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(3_000) });
    return response.ok ? workerReadings(await response.text()) : null;
  } catch {
    return null;
  }
}

/**
 * The resident memory of every process in process group `pgid` (the dashboard: npx, next and its server),
 * summed, from /proc (Linux); null when none is left. Next.js exposes no heap metric, so the dashboard's
 * heap is not sampled.
 */
export function processGroupRssBytes(pgid: number): number | null {
  let total = 0;
  let found = false;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command's closing parenthesis: state, ppid, pgrp, ...
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== pgid) continue;
      const kib = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1];
      if (kib === undefined) continue;
      total += Number(kib) * 1024;
      found = true;
    } catch {
      // The process ended while being read.
    }
  }
  return found ? total : null;
}

export async function pgConnections(client: pg.Pool, database: string): Promise<number | null> {
  const { rows } = await client
    .query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1', [database])
    .catch(() => ({ rows: [] as Array<{ n: string }> }));
  return rows[0] ? Number(rows[0].n) : null;
}

/** Bytes per table of the public schema, a partitioned table's partitions summed into it. */
export async function tableSizes(client: pg.Pool): Promise<Record<string, number>> {
  const { rows } = await client
    .query<{ name: string; bytes: string }>(
      `SELECT COALESCE(parent.relname, c.relname) AS name, SUM(pg_total_relation_size(c.oid))::bigint AS bytes
         FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace
         LEFT JOIN pg_inherits i ON i.inhrelid = c.oid
         LEFT JOIN pg_class parent ON parent.oid = i.inhparent
        WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname <> '_prisma_migrations'
        GROUP BY 1`,
    )
    .catch(() => ({ rows: [] as Array<{ name: string; bytes: string }> }));
  return Object.fromEntries(rows.map((r) => [r.name, Number(r.bytes)]));
}

/**
 * Bytes of the topics whose name starts with one of `prefixes`: their log segments (`*.log`, what
 * kafka-log-dirs reports as a partition's size; the preallocated index files are left out), summed over their
 * partitions in every broker data directory.
 */
export function topicSizes(dataDirs: readonly string[], prefixes: readonly string[]): Record<string, number> {
  const sizes: Record<string, number> = {};
  for (const dir of dataDirs) {
    const entries = existsSync(dir) ? readdirSync(dir) : [];
    for (const entry of entries) {
      const topic = /^(.+)-\d+$/.exec(entry)?.[1];
      if (topic === undefined || !prefixes.some((p) => topic.startsWith(p))) continue;
      try {
        for (const file of readdirSync(path.join(dir, entry)))
          if (file.endsWith('.log')) sizes[topic] = (sizes[topic] ?? 0) + statSync(path.join(dir, entry, file)).size;
      } catch {
        // A segment deleted while being read.
      }
    }
  }
  return sizes;
}

/** Times `rounds` GETs of each path; a failed or non-2xx answer counts as an error. */
export async function timeApi(
  baseUrl: string,
  paths: readonly string[],
  rounds: number,
): Promise<Pick<SystemSample, 'apiMs' | 'apiErrors'>> {
  const apiMs: number[] = [];
  let apiErrors = 0;
  for (let round = 0; round < rounds; round++)
    for (const apiPath of paths) {
      const started = performance.now();
      try {
        const response = await fetch(`${baseUrl}${apiPath}`, {
          headers: bearer(VIEWER_TOKEN),
          signal: AbortSignal.timeout(10_000),
        });
        await response.arrayBuffer();
        if (response.ok) apiMs.push(Math.round((performance.now() - started) * 10) / 10);
        else apiErrors += 1;
      } catch {
        apiErrors += 1;
      }
    }
  return { apiMs, apiErrors };
}

export type { ProcessSample, SystemSample };
