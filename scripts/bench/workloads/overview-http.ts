import { createDatabase, type Database } from '../../../lib/db';
import { DEFAULT_CLUSTER } from '../../../lib/schemas/values';
import { ZGroupsResponse } from '../../../lib/schemas/groups';
import { summarizeGroups } from '../../../lib/groups/summarize-groups';
import { recordGroupSummaries } from '../../../worker/alerts/record-group-summaries';
import { ensureSamplePartitions } from '../../../worker/sampler/sample-partitions';
import { VIEWER } from '../../../test-support/credentials';
import { signInCookie, startBuiltDashboard } from '../../lib/built-dashboard';
import { epochNowMs, type ChildSpec, type Measurement } from '../protocol';
import { percentileOfSorted, summarizeLatency } from '../stats';
import { peakRssBytes } from './probe';

// (11o) The overview at fleet size over HTTP: `groups` groups x `partitions` partitions of recent samples in a
// database of its own, analysed once by the worker's own evaluation path (summarizeGroups, then
// recordGroupSummaries: both timed, since a worker pays them every round), then the built dashboard
// (`next start`, production build) asked for overview pages the way the page asks: 100 groups, in the
// orders, filters and pages a user clicks through, each timed from the request to the last body byte, one
// after another after a few untimed warm-up requests. While it runs, the cluster's evaluation marker is
// moved on every second, as a running worker's evaluation keeps it current (without the worker's CPU: on one
// machine with a worker evaluating this fleet, the dashboard shares the cores with it). The first HTML of
// `/` (the server render holds the first page) is timed too.

export const OVERVIEW_PREFIX = 'warden-bench.overview';
const ROUNDS = 4;
const INTERVAL_MS = 5_000;
const WARM_UP = 10;
const PAGE_SIZE = 100;

/** What a user clicks through on the overview: the default view, other orders, filters and later pages. */
const VIEWS = [
  '',
  'sort=totalLag',
  'sort=timeLag&order=reversed',
  'sort=group',
  'status=WARN',
  'status=ERR&sort=rebalance',
  'q=0042',
  'q=overview.1',
  'offset=1000',
  'sort=group&offset=1900',
].map((query) => `limit=${PAGE_SIZE}${query === '' ? '' : `&${query}`}`);

/**
 * Every group on its own topic; each round's log end grows 100 per partition. A tenth of the groups stopped
 * committing (lag grows), a tenth commit behind the head by a per-group amount, the rest keep up.
 */
async function seedFleet(db: Database, groups: number, partitions: number, endMs: number): Promise<number> {
  await db.$executeRawUnsafe(
    'TRUNCATE lag_sample, group_summary, group_summary_round, partition_quarantine, rebalance_event',
  );
  await ensureSamplePartitions(db, { now: new Date(endMs), daysBack: 1, daysAhead: 1 });
  return db.$executeRaw`
    INSERT INTO lag_sample (cluster, sampled_at, group_id, topic, partition, committed_offset, log_start_offset,
      log_end_offset, lag, group_state, member_id, member_client_id, member_host)
    SELECT ${DEFAULT_CLUSTER}, to_timestamp((${endMs}::bigint - (${ROUNDS - 1} - r) * ${INTERVAL_MS})::float8 / 1000),
      ${OVERVIEW_PREFIX} || '.' || lpad(g::text, 4, '0'), ${OVERVIEW_PREFIX} || '.t' || g, p,
      c.committed, 0, c.log_end, c.log_end - c.committed, 'Stable',
      'member-' || (p % 3), 'client-' || (p % 3), '/10.0.0.' || (p % 3)
    FROM generate_series(0, ${groups - 1}) AS g, generate_series(0, ${partitions - 1}) AS p,
      generate_series(0, ${ROUNDS - 1}) AS r,
      LATERAL (SELECT 10000 + r * 100 AS log_end,
        CASE WHEN g % 10 = 0 THEN 10000 WHEN g % 10 = 1 THEN 10000 + r * 100 - (g % 97) * 10 ELSE 10000 + r * 100 END AS committed) AS c`;
}

async function timedGet(url: string, cookie: string): Promise<{ ms: number; bytes: number; body: string }> {
  const started = performance.now();
  const response = await fetch(url, { headers: { cookie } });
  const body = await response.text();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: ${body.slice(0, 300)}`);
  return { ms, bytes: Buffer.byteLength(body), body };
}

export async function runOverviewHttp(spec: ChildSpec): Promise<Measurement> {
  const settings = spec.overview;
  if (!settings) throw new Error(`workload ${spec.workload}: the overview settings are missing`);
  const db = createDatabase(settings.databaseUrl, 2);
  const server = startBuiltDashboard(settings.port, settings.databaseUrl);
  const { baseUrl } = server;
  let marker: ReturnType<typeof setInterval> | null = null;
  try {
    const endMs = Date.now();
    const seedStarted = performance.now();
    const rows = await seedFleet(db, settings.groups, settings.partitions, endMs);
    const seedMs = performance.now() - seedStarted;

    const analysisOptions = {
      timeLagObjectiveMs: settings.timeLagObjectiveMs,
      rateWindowMs: settings.rateWindowMs,
      now: new Date(endMs + 1_000),
    };
    const summarizeStarted = performance.now();
    const summaries = await summarizeGroups(db, [DEFAULT_CLUSTER], analysisOptions);
    const summarizeMs = performance.now() - summarizeStarted;
    const recordStarted = performance.now();
    await recordGroupSummaries(db, DEFAULT_CLUSTER, summaries, new Date());
    const recordMs = performance.now() - recordStarted;
    marker = setInterval(() => void recordGroupSummaries(db, DEFAULT_CLUSTER, null, new Date()), 1_000);

    await server.ready();
    const cookie = await signInCookie(baseUrl, VIEWER);
    const urlOf = (i: number) => `${baseUrl}/api/groups?${VIEWS[i % VIEWS.length]}`;
    for (let i = 0; i < WARM_UP; i++) await timedGet(urlOf(i), cookie);

    const first = ZGroupsResponse.parse(JSON.parse((await timedGet(urlOf(0), cookie)).body));
    if (first.source !== 'summaries') throw new Error(`the overview answered from ${first.source}, not the summaries`);
    if (first.total !== settings.groups)
      throw new Error(`the overview lists ${first.total} groups, ${settings.groups} were seeded`);

    const baselineRssBytes = process.memoryUsage.rss();
    const times = new Float64Array(settings.iterations);
    let bytes = 0;
    const startEpochMs = epochNowMs();
    for (let i = 0; i < settings.iterations; i++) {
      const answer = await timedGet(urlOf(i), cookie);
      times[i] = answer.ms;
      if (i % VIEWS.length === 0) bytes = answer.bytes;
    }
    const endEpochMs = epochNowMs();
    const htmlTimes = new Float64Array(Math.max(3, Math.round(settings.iterations / 10)));
    for (let i = 0; i < htmlTimes.length; i++) htmlTimes[i] = (await timedGet(`${baseUrl}/`, cookie)).ms;

    const sorted = Float64Array.from(times).sort();
    const htmlSorted = Float64Array.from(htmlTimes).sort();
    const p = (values: Float64Array, q: number) => Math.round((percentileOfSorted(values, q) ?? Number.NaN) * 10) / 10;
    return {
      records: settings.iterations,
      startEpochMs,
      endEpochMs,
      latency: summarizeLatency(times),
      peakRssBytes: peakRssBytes(),
      baselineRssBytes,
      partitionDoneMs: [],
      details: {
        groups: settings.groups,
        partitions: settings.partitions,
        lagSampleRows: rows,
        seedMs: Math.round(seedMs),
        summarizeMs: Math.round(summarizeMs),
        recordMs: Math.round(recordMs),
        p50Ms: p(sorted, 50),
        p95Ms: p(sorted, 95),
        maxMs: p(sorted, 100),
        pageBytes: bytes,
        htmlP50Ms: p(htmlSorted, 50),
        htmlP95Ms: p(htmlSorted, 95),
        htmlRequests: htmlTimes.length,
        statuses: Object.entries(first.counts)
          .map(([status, count]) => `${status} ${count}`)
          .join(', '),
      },
    };
  } finally {
    if (marker) clearInterval(marker);
    server.stop();
    await db.$disconnect();
  }
}
