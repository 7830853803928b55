import { createDatabase } from '../../../lib/db';
import { ZLagSeriesQuery } from '../../../lib/schemas/groups';
import { getGroupDetail } from '../../../lib/server/get-group-detail';
import { getLagSeries, resolveSeriesWindow } from '../../../lib/server/get-lag-series';
import { epochNowMs, type ChildSpec, type Measurement } from '../protocol';
import { percentileOfSorted, summarizeLatency } from '../stats';
import { peakRssBytes } from './probe';

// (11a) and (11b): the server functions behind GET /api/groups/{groupId} (lib/server/get-group-detail.ts) and
// GET /api/groups/{groupId}/lag (lib/server/get-lag-series.ts) on the seeded history (api-seed.ts), timed
// from the call to the JSON body in bytes (Response.json, as the route's respond() builds it). Not over HTTP:
// no Next.js routing, access check or socket in the time. Calls run one after another, after WARM_UP untimed
// ones (connections opened, plans cached), with the database pool the server uses (createDatabase's default).
// The series is the 24 hours ending at the newest seeded round (what `range=24h` asks for at that moment).

const WARM_UP = 5;

export async function runApiReads(spec: ChildSpec): Promise<Measurement> {
  const settings = spec.apiReads;
  if (!settings) throw new Error(`workload ${spec.workload}: the apiReads settings are missing`);
  const db = createDatabase(settings.databaseUrl);
  try {
    const newest = await db.lagSample.findFirst({
      where: { groupId: settings.groupId },
      orderBy: { sampledAt: 'desc' },
      select: { sampledAt: true },
    });
    if (!newest) throw new Error(`workload ${spec.workload}: group ${settings.groupId} has no samples (seed missing)`);
    const endMs = newest.sampledAt.getTime();
    const window = resolveSeriesWindow(
      ZLagSeriesQuery.parse({
        from: new Date(endMs - 24 * 3_600_000 + 1).toISOString(),
        to: new Date(endMs + 1).toISOString(),
      }),
      endMs,
    );
    const read =
      settings.read === 'group-detail'
        ? () =>
            getGroupDetail(db, 'default', settings.groupId, {
              timeLagObjectiveMs: settings.timeLagObjectiveMs,
              rateWindowMs: settings.rateWindowMs,
            })
        : () => getLagSeries(db, 'default', settings.groupId, window, 7);
    const once = async () => {
      const body = await read();
      return (await Response.json(body).arrayBuffer()).byteLength;
    };

    for (let i = 0; i < WARM_UP; i++) await once();
    const baselineRssBytes = process.memoryUsage.rss();
    const times = new Float64Array(settings.iterations);
    let bytes = 0;
    const startEpochMs = epochNowMs();
    for (let i = 0; i < settings.iterations; i++) {
      const started = performance.now();
      bytes = await once();
      times[i] = performance.now() - started;
    }
    const endEpochMs = epochNowMs();
    const sorted = Float64Array.from(times).sort();
    const p = (q: number) => Math.round((percentileOfSorted(sorted, q) ?? Number.NaN) * 10) / 10;
    const detail =
      settings.read === 'group-detail' ? await getGroupDetail(db, 'default', settings.groupId, settings) : null;
    const series =
      settings.read === 'lag-series-24h' ? await getLagSeries(db, 'default', settings.groupId, window, 7) : null;
    return {
      records: settings.iterations,
      startEpochMs,
      endEpochMs,
      latency: summarizeLatency(times),
      peakRssBytes: peakRssBytes(),
      baselineRssBytes,
      partitionDoneMs: [],
      details: {
        p50Ms: p(50),
        p95Ms: p(95),
        maxMs: p(100),
        responseBytes: bytes,
        ...(detail ? { partitions: detail.partitions.length, status: detail.status } : {}),
        ...(series
          ? {
              source: series.source,
              stepMs: series.stepMs,
              points: series.times.length,
              partitions: series.partitions.length,
            }
          : {}),
      },
    };
  } finally {
    await db.$disconnect();
  }
}
