import { describe, expect, it } from 'vitest';
import { selectWorkloads, WORKLOADS, type WorkloadPlan } from './plan';
import type { Measurement } from './protocol';
import {
  controlThroughputComparison,
  geometricMean,
  isolationRatio,
  memoryVerdict,
  partitionsRate,
  representativeRun,
  summarize,
  type WorkloadRuns,
} from './summary';

const plan = (id: string): WorkloadPlan => {
  const found = WORKLOADS.find((w) => w.id === id);
  if (!found) throw new Error(`no workload ${id}`);
  return found;
};

function measurement(records: number, elapsedMs: number, overrides: Partial<Measurement> = {}): Measurement {
  return {
    records,
    startEpochMs: 1_000,
    endEpochMs: 1_000 + elapsedMs,
    latency: { count: records, p50: 1, p99: 5, max: 9 },
    peakRssBytes: 100 * 1024 * 1024,
    baselineRssBytes: 80 * 1024 * 1024,
    partitionDoneMs: [],
    details: {},
    ...overrides,
  };
}

const SIX = [100, 100, 100, 100, 100, 100];

describe('summary', () => {
  it('reports the median run and its ratio to the raw ceiling', () => {
    const entries: WorkloadRuns[] = [
      { plan: plan('1'), runs: [measurement(1000, 100), measurement(1000, 50), measurement(1000, 200)] }, // 10k, 20k, 5k /s
      { plan: plan('2'), runs: [measurement(1000, 125, { peakRssBytes: 300 * 1024 * 1024 })] }, // 8k/s
    ];
    const { rows, targets } = summarize(
      entries,
      new Map([
        ['1', SIX],
        ['2', SIX],
      ]),
    );
    expect(rows[0]).toMatchObject({ id: '1', recordsPerSec: 10_000, ratioToRaw: 1 });
    expect(rows[0]!.runsRecordsPerSec).toEqual([10_000, 20_000, 5_000]);
    expect(rows[0]!.notes).toContain('median of 3: 5,000–20,000/s');
    expect(rows[1]).toMatchObject({ id: '2', recordsPerSec: 8_000, ratioToRaw: 0.8, peakRssBytes: 300 * 1024 * 1024 });
    expect(targets).toContainEqual({ target: '(2) at least 0.85 of (1)', measured: '0.80', pass: false });
  });

  it('picks a real run (the lower middle one) for an even number of runs', () => {
    const runs = [measurement(100, 10), measurement(100, 20), measurement(100, 40), measurement(100, 5)];
    expect(representativeRun(runs)).toBe(runs[1]);
    expect(representativeRun([])).toBeNull();
  });

  it('rates a set of partitions by the time the last of them was done', () => {
    const run = measurement(600, 100, { partitionDoneMs: [300, 40, 50, 50, 50, 50] });
    expect(partitionsRate(run, SIX, [1, 2, 3, 4, 5])).toBe(10_000); // 500 records in 50 ms
    expect(partitionsRate(measurement(1, 1, { partitionDoneMs: [null, 1] }), [1, 1], [0, 1])).toBeNull();
  });

  it('compares (7) with the same five partitions of (2)', () => {
    const clean = measurement(600, 100, { partitionDoneMs: [100, 50, 50, 50, 50, 50] }); // five: 500 in 50 ms
    const poisoned = measurement(500, 52.63157894736842); // 9,500/s
    const context = {
      byId: new Map<string, WorkloadRuns>([
        ['2', { plan: plan('2'), runs: [clean] }],
        ['7', { plan: plan('7'), runs: [poisoned] }],
      ]),
      endOffsets: new Map([['2', SIX]]),
    };
    expect(isolationRatio(context)).toBeCloseTo(0.95, 5);
  });

  it('calls memory bounded only when the held records stay within the bound and RSS stays flat', () => {
    const mib = 1024 * 1024;
    const details = {
      heldMax: 5_000,
      heldBound: 5_168,
      rssObserveStartBytes: 200 * mib,
      rssObserveMaxBytes: 210 * mib,
    };
    expect(memoryVerdict(details)).toEqual({ bounded: true, rssGrowthBytes: 10 * mib });
    expect(memoryVerdict({ ...details, heldMax: 5_169 }).bounded).toBe(false);
    expect(memoryVerdict({ ...details, rssObserveMaxBytes: 221 * mib }).bounded).toBe(false);
  });

  it('checks keyed retries against the published figures and requires zero violations; the median only at steady rates', () => {
    const latency = { count: 1, p50: 12.5, p99: 40, max: 50 };
    // 50,000 records in 2 s: 25,000/s; the producer took 1,000 ms for its 50 requests of 1,000 records.
    const unpaced = measurement(50_000, 2_000, {
      latency,
      details: { violations: 1, retries: 5, duplicates: 0, produceMs: 1_000 },
    });
    const paced = measurement(50_000, 5_000, {
      latency: { ...latency, p50: 9.5 },
      details: { violations: 0, retries: 5, duplicates: 0 },
    });
    const { targets, rows } = summarize(
      [
        { plan: plan('5'), runs: [unpaced] },
        { plan: plan('5s'), runs: [paced] },
        { plan: plan('5p'), runs: [{ ...paced, latency }] },
      ],
      new Map(),
    );
    expect(targets).toEqual([
      { target: '(5) more than the published 14,027 records/s', measured: '25,000', pass: true },
      {
        target: '(5) median latency below the published 11.7 ms',
        measured:
          '12.5 ms, not judged: unpaced, the producer (50,000/s) outran the consumer (25,000/s) and records arrive in 1,000-record produce requests ' +
          '(one per 20.0 ms here); judged at steady rates in (5p) and (5s)',
        pass: null,
      },
      { target: '(5) zero order violations', measured: '1', pass: false },
      { target: '(5p) median latency below the published 11.7 ms', measured: '12.5 ms', pass: false },
      { target: '(5p) zero order violations', measured: '0', pass: true },
      { target: '(5s) median latency below the published 11.7 ms', measured: '9.5 ms', pass: true },
      { target: '(5s) zero order violations', measured: '0', pass: true },
    ]);
    expect(rows.find((r) => r.id === '5')!.notes).toContain('producer 50,000/s');
  });

  it('rates (6) against its ideal, to the last commit and to the last handler', () => {
    // 40,000 records: handlers done after 2.5 s (16,000/s), last commit at 4 s (10,000/s); ideal 20,000/s.
    const run = measurement(40_000, 4_000, { details: { lastCompletionEpochMs: 1_000 + 2_500, meanIoMs: 6.25 } });
    const { rows, targets } = summarize([{ plan: plan('6'), runs: [run] }], new Map());
    expect(rows[0]!.notes).toContain(
      '0.50 of the 20,000/s ideal to the last commit; 0.80 to the last completion (16,000/s; the last commit 1,500 ms later); ' +
        'a 5 ms sleep took 6.25 ms on average: 0.63 of the 16,000/s that allows',
    );
    expect(targets).toContainEqual({ target: '(6) at least 0.9 of the 20,000/s ideal', measured: '0.50', pass: false });
    expect(targets).toContainEqual({
      target: '(6) at least 0.9 of the 16,000/s its measured 6.25 ms sleeps allow',
      measured: '0.63',
      pass: false,
    });
    // 16,667/s: 0.83 of the nominal ideal, but 0.92 of what 5.5 ms sleeps allow.
    const near = summarize(
      [{ plan: plan('6'), runs: [measurement(40_000, 2_400, { details: { meanIoMs: 5.5 } })] }],
      new Map(),
    );
    expect(near.targets).toContainEqual({
      target: '(6) at least 0.9 of the 20,000/s ideal',
      measured: '0.83',
      pass: false,
    });
    expect(near.targets).toContainEqual({
      target: '(6) at least 0.9 of the 18,182/s its measured 5.50 ms sleeps allow',
      measured: '0.92',
      pass: true,
    });
  });

  it('judges (9) against 10,000 records/s and against (9r) of the same run', () => {
    const pipeline = measurement(30_000, 2_500);
    const ceiling = measurement(30_000, 2_000);
    const { targets } = summarize(
      [
        { plan: plan('9'), runs: [pipeline] },
        { plan: plan('9r'), runs: [ceiling] },
      ],
      new Map(),
    );
    expect(targets).toEqual([
      { target: '(9) at least 10,000 records/s', measured: '12,000', pass: true },
      { target: '(9) at least 0.8 of (9r) in the same run', measured: '0.80', pass: true },
    ]);
  });

  it('puts Parallel Consumer beside its Warden peer: Warden ÷ PC per shared workload against its target', () => {
    const io = (elapsedMs: number, lastEndMs: number, detail: string) =>
      measurement(40_000, elapsedMs, { details: { [detail]: 1_000 + lastEndMs, commits: 7, handled: 40_000 } });
    const { rows, targets } = summarize(
      [
        { plan: plan('2'), runs: [measurement(10_000, 100), measurement(10_000, 50)] }, // 100k and 200k /s
        { plan: plan('2pc'), runs: [measurement(10_000, 200, { details: { commits: 3, handled: 10_000 } })] }, // 50k/s
        { plan: plan('6'), runs: [io(4_000, 2_000, 'lastCompletionEpochMs')] }, // 10,000/s; 20,000/s to its last handler
        { plan: plan('6pc'), runs: [io(3_800, 2_500, 'lastHandlerEndEpochMs')] }, // 10,526/s; 16,000/s to its last handler
        { plan: plan('4pc'), runs: [], skipped: 'no `java` on PATH' },
      ],
      new Map(),
    );
    const row = (id: string) => rows.find((r) => r.id === id)!;
    // The peer's median run is the lower middle one: 100,000/s.
    expect(row('2pc').notes).toBe('Warden (2) ÷ Parallel Consumer: 2.00 (Warden 100,000/s); 3 commits, handled 10,000');
    expect(row('6pc').notes).toContain('Warden (6) ÷ Parallel Consumer: 0.95 (Warden 10,000/s)');
    expect(row('6pc').notes).toContain(
      "to the last handler's end: Parallel Consumer 16,000/s, Warden 20,000/s (÷ 1.25)",
    );
    expect(row('4pc')).toMatchObject({ recordsPerSec: null, notes: 'skipped: no `java` on PATH' });
    expect(targets.filter((t) => t.target.includes('Parallel Consumer'))).toEqual([
      {
        target: '(2) Warden ÷ Parallel Consumer (2pc) at least 1.0',
        measured: '2.00 (100,000 ÷ 50,000/s)',
        pass: true,
      },
      {
        target: '(6) Warden ÷ Parallel Consumer (6pc) at least 1.1',
        measured: '0.95 (10,000 ÷ 10,526/s)',
        pass: false,
      },
      {
        target: '(4) Warden ÷ Parallel Consumer (4pc) at least 1.0',
        measured: 'not measured: 4pc skipped (no `java` on PATH)',
        pass: null,
      },
    ]);
  });

  it('judges (13) on its p95 round trip against 1 s and says what the skip does', () => {
    const run = (p95Ms: number) =>
      measurement(20, 10_000, {
        details: {
          p50Ms: 300,
          p95Ms,
          appliedP50Ms: 120,
          appliedP95Ms: 400,
          pollIntervalMs: 1_000,
          buildMs: 16_000,
          installReused: true,
          serviceStartMs: 450,
        },
      });
    const fast = summarize([{ plan: plan('13'), runs: [run(999)] }], new Map());
    expect(fast.targets).toEqual([
      {
        target:
          '(13) an operator action to the example service (its own process) visible through the API under 1,000 ms at p95',
        measured: '999 ms',
        pass: true,
      },
    ]);
    expect(fast.rows[0]).toMatchObject({ id: '13', records: 20, recordsPerSec: null, ratioToRaw: null });
    expect(fast.rows[0]!.notes).toContain('Skip without a dead-letter copy');
    expect(fast.rows[0]!.notes).toContain('install cached, pack + install + build 16 s');
    expect(summarize([{ plan: plan('13'), runs: [run(1_000)] }], new Map()).targets[0]!.pass).toBe(false);
    expect(summarize([{ plan: plan('13'), runs: [], error: 'no broker' }], new Map()).targets[0]).toMatchObject({
      measured: '—',
      pass: null,
    });
  });

  it("judges (14) on the control client's bytes per second and shows the headers and the broker apart", () => {
    const details = {
      partitions: 12,
      topicNameChars: 6,
      producedPerSec: 500,
      warmupMs: 20_000,
      windowMs: 60_000,
      stateIntervalMs: 5_000,
      statesPublished: 12,
      stateValueBytes: 12 * 4_000,
      acksPublished: 0,
      commandMessagesRead: 0,
      controlBytesOut: 54_000,
      controlBytesIn: 6_000,
      controlBytesPerSec: 1_000,
      requests: 'Produce 12, Fetch 12, Heartbeat 12',
      requestCount: 36,
      connectionsOpenedOrClosed: 0,
      tcpSegments: 150,
      headerBytesPerSegment: 52,
      headerBytesPerSec: 130,
      adminBytesPerSec: 0,
      brokerStateRecords: 12,
      brokerCommandRecords: 0,
      brokerStateDiskBytes: 49_200,
      brokerCommandDiskBytes: 0,
      brokerDiskBytesPerSec: 820,
      brokerSizesExact: true,
      brokerSizesProblem: null,
    };
    const under = summarize([{ plan: plan('14'), runs: [measurement(12, 60_000, { details })] }], new Map());
    expect(under.targets).toEqual([
      {
        target:
          '(14) control-plane traffic of one instance with 12 partitions under 1,024 B/s (Kafka protocol bytes, both directions)',
        measured: '1,000 B/s (1,130 B/s with TCP/IP headers)',
        pass: true,
      },
    ]);
    const notes = under.rows[0]!.notes;
    expect(notes).toContain('out 900 / in 100 B/s');
    expect(notes).toContain('states 4,000 value bytes each');
    expect(notes).toContain('on disk +49,200 B = 820 B/s (kafka-log-dirs)');
    const over = summarize(
      [
        {
          plan: plan('14'),
          runs: [
            measurement(12, 60_000, {
              details: {
                ...details,
                controlBytesPerSec: 1_024,
                headerBytesPerSec: null,
                brokerDiskBytesPerSec: null,
                brokerSizesProblem: 'not the bundled broker',
              },
            }),
          ],
        },
      ],
      new Map(),
    );
    expect(over.targets[0]).toMatchObject({ measured: '1,024 B/s', pass: false });
    expect(over.rows[0]!.notes).toContain('TCP/IP headers not measured (no ss)');
    expect(over.rows[0]!.notes).toContain('on disk not measured (not the bundled broker)');
  });

  it("compares (15)'s back-to-back pairs: off, on then on, off each round, by the geometric mean of their ratios", () => {
    // Each run is the first 'on' run (records/s from its window); the round's other three windows travel in its
    // details: off1 pairs with it, on2 with off2.
    const round = (on1Ms: number, off1Ms: number, on2Ms: number, off2Ms: number, states: [number, number]) => {
      const window = (prefix: string, ms: number) => ({
        [`${prefix}Records`]: 10_000,
        [`${prefix}StartEpochMs`]: 5_000,
        [`${prefix}EndEpochMs`]: 5_000 + ms,
      });
      return measurement(10_000, on1Ms, {
        details: {
          ...window('off1', off1Ms),
          ...window('on2', on2Ms),
          ...window('off2', off2Ms),
          controlStatesPublished: states[0],
          on2StatesPublished: states[1],
        },
      });
    };
    const entry: WorkloadRuns = {
      plan: plan('15'),
      runs: [round(100, 100, 110, 100, [2, 3]), round(90, 80, 100, 100, [2, 2])],
    };
    const comparison = controlThroughputComparison(entry)!;
    expect(comparison.on).toEqual([100_000, 90_909.09090909091, 111_111.11111111111, 100_000]);
    expect(comparison.off).toEqual([100_000, 100_000, 125_000, 100_000]);
    expect(comparison.orders).toEqual(['off, on', 'on, off', 'off, on', 'on, off']);
    expect(comparison.pairRatios.map((r) => r!.toFixed(3))).toEqual(['1.000', '0.909', '0.889', '1.000']);
    // The medians are level, but the pairs say 'on' was slower: the pairs decide.
    expect(comparison.ratio!.toFixed(4)).toBe(Math.pow((10 / 11) * (8 / 9), 1 / 4).toFixed(4));
    const { rows, targets } = summarize([{ plan: plan('1'), runs: [measurement(10_000, 50)] }, entry], new Map());
    const row = rows.find((r) => r.id === '15')!;
    expect(row).toMatchObject({ recordsPerSec: 100_000, ratioToRaw: 0.5 });
    expect(row.notes).toBe(
      'control on: median 100,000/s (90,909–111,111); off: median 100,000/s (100,000–125,000); ' +
        'on ÷ off 0.948 (geometric mean of 4 pairs back to back; ratio of the medians 1.000), ' +
        'per pair (off, on | on, off | off, on | on, off): 1.000, 0.909, 0.889, 1.000; ' +
        "the control plane starts with the consumer, so each 'on' window holds its start: its reader joining, " +
        'its producer connecting and 2–3 states published',
    );
    expect(targets).toContainEqual({
      target: '(15) control plane on at least 0.97 of off (back-to-back pairs, same run)',
      measured: '0.948 (geometric mean of 4 pairs; medians 100,000 ÷ 100,000/s)',
      pass: false,
    });
    const level = summarize([{ plan: plan('15'), runs: [round(100, 100, 100, 100, [2, 2])] }], new Map());
    expect(level.targets[0]).toMatchObject({
      measured: '1.000 (geometric mean of 2 pairs; medians 100,000 ÷ 100,000/s)',
      pass: true,
    });
  });

  it('takes the geometric mean of the usable ratios only', () => {
    expect(geometricMean([2, 0.5])).toBe(1);
    expect(geometricMean([4, null, Number.NaN, 0, 1])).toBe(2);
    expect(geometricMean([null])).toBeNull();
  });

  it('judges (16) on its achieved rate within 10% of the job rate and (16u) against 5,000 records/s', () => {
    const run = (records: number, elapsedMs: number, configuredRatePerSec: number) =>
      measurement(records, elapsedMs, {
        details: {
          configuredRatePerSec,
          achievedRatePerSec: Math.round((records * 1_000) / elapsedMs),
          steadyRatePerSec: 2_010,
          batches: 50,
          meanBatchSize: 400,
          firstBatchMs: 300,
          postgresRoundTrips: 104,
          postgresRoundTripsPerBatch: 2,
          postgresRoundTripsToFirstBatch: 4,
        },
      });
    const judged = (rows: WorkloadRuns[]) => summarize(rows, new Map());
    const onRate = judged([
      { plan: plan('16'), runs: [run(20_000, 10_500, 2_000)] },
      { plan: plan('16u'), runs: [run(20_000, 2_000, 100_000)] },
    ]);
    expect(onRate.targets).toEqual([
      {
        target: '(16) a redrive keeps to its rate within 10% (claim to end)',
        measured: '1,905/s of 2,000/s (-4.8%)',
        pass: true,
      },
      { target: '(16u) an unthrottled redrive at least 5,000 records/s', measured: '10,000/s', pass: true },
    ]);
    expect(onRate.rows[0]).toMatchObject({ id: '16', ratioToRaw: null });
    expect(onRate.rows[0]!.recordsPerSec).toBeCloseTo(1_904.76, 2);
    expect(onRate.rows[0]!.notes).toContain('Postgres round trips 2 per batch, 104 in all');
    expect(judged([{ plan: plan('16'), runs: [run(20_000, 11_200, 2_000)] }]).targets[0]!.pass).toBe(false);
    expect(judged([{ plan: plan('16'), runs: [run(20_000, 8_900, 2_000)] }]).targets[0]!.pass).toBe(false);
    expect(judged([{ plan: plan('16u'), runs: [run(20_000, 4_100, 100_000)] }]).targets[0]!.pass).toBe(false);
  });

  it('shows a failed workload with no numbers rather than dropping it', () => {
    const { rows } = summarize([{ plan: plan('9'), runs: [], error: 'postgres down\nstack' }], new Map());
    expect(rows[0]).toMatchObject({ id: '9', recordsPerSec: null, ratioToRaw: null, notes: 'FAILED: postgres down' });
  });
});

describe('workload selection', () => {
  it('always brings (1), and (2) with (7)', () => {
    expect(selectWorkloads(['7']).map((w) => w.id)).toEqual(['1', '2', '7']);
    expect(selectWorkloads([]).map((w) => w.id)).toEqual(WORKLOADS.map((w) => w.id));
  });

  it('runs timing workloads alone: they have no ratio to (1)', () => {
    expect(selectWorkloads(['10']).map((w) => w.id)).toEqual(['10']);
    expect(selectWorkloads(['11a', '11b']).map((w) => w.id)).toEqual(['11a', '11b']);
    expect(selectWorkloads(['2', '10']).map((w) => w.id)).toEqual(['1', '2', '10']);
  });

  it('brings the Warden peer of each Parallel Consumer row, and (1)', () => {
    expect(selectWorkloads(['6pc']).map((w) => w.id)).toEqual(['1', '6', '6pc']);
    expect(selectWorkloads(['2pc', '3bpc', '4pc', '6pc']).map((w) => w.id)).toEqual([
      '1',
      '2',
      '3b',
      '4',
      '6',
      '2pc',
      '3bpc',
      '4pc',
      '6pc',
    ]);
  });

  it('runs the control-plane timings alone and brings (1) with the throughput comparison (15)', () => {
    expect(selectWorkloads(['13', '14']).map((w) => w.id)).toEqual(['13', '14']);
    expect(selectWorkloads(['15']).map((w) => w.id)).toEqual(['1', '15']);
  });

  it('runs the redrive rows alone: a rate they keep to has no ratio to (1)', () => {
    expect(selectWorkloads(['16', '16u']).map((w) => w.id)).toEqual(['16', '16u']);
  });

  it('rejects unknown ids, naming the known ones', () => {
    expect(() => selectWorkloads(['99'])).toThrow(/unknown workload\(s\) 99; known: 1, 2, 3a/);
  });
});
