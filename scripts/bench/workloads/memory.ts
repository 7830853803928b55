import { CONSUMER_CORE_DEFAULTS } from '@warden/consumer';
import type { Admission, HandlerContext, SourceRecord } from '@warden/consumer';
import { BLOCKER_KEY } from '../records';
import type { ChildSpec, Measurement } from '../protocol';
import { RssSampler, sleep } from './probe';
import { WardenWorkload } from './warden-harness';

// One partition blocked by a record whose handler never completes, with a large backlog behind it.
// The commit cannot pass the blocker, so every record fetched after it stays pending; the core must pause
// the partition at maxPendingPerPartition (plus the batch already fetched) and memory must stay flat
// while the backlog waits in the topic. The healthy partitions must finish meanwhile.

export async function runMemory(spec: ChildSpec, groupId: string): Promise<Measurement> {
  const memory = spec.memory;
  if (!memory) throw new Error(`workload ${spec.workload}: the memory settings are missing`);
  const blocked = memory.blockedPartition;
  const healthy = spec.endOffsets.map((_, p) => p).filter((p) => p !== blocked);
  const bench = new WardenWorkload<number>(spec, groupId, { watchedPartitions: healthy });
  const { latency, probe } = bench;
  const blockerKey = Buffer.from(BLOCKER_KEY);
  const maxPending = bench.settings.maxPendingPerPartition ?? CONSUMER_CORE_DEFAULTS.maxPendingPerPartition;

  const admit = (_record: SourceRecord): Admission<number> => ({
    ok: true,
    value: performance.now(),
    orderingKey: null,
  });
  const handle = async (admittedAt: number, record: SourceRecord, ctx: HandlerContext): Promise<void> => {
    if (record.key !== null && record.key.equals(blockerKey)) {
      // Never completes; gives up only when the core aborts the call (drain deadline at stop).
      await new Promise<void>((_, reject) => ctx.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    }
    latency.add(performance.now() - admittedAt);
  };

  const consumer = bench.createConsumer({ admit, handle });

  let maxHeld = 0;
  const blockedState = () => consumer.core.snapshot().partitions.find((p) => p.partition === blocked);
  const rss = new RssSampler();
  rss.start(200);
  const heldWatch = setInterval(() => {
    maxHeld = Math.max(maxHeld, blockedState()?.deliveredCount ?? 0);
  }, 50);
  await bench.start();
  const endEpochMs = await bench.finished();
  const startEpochMs = probe.firstFetchEpochMs() ?? endEpochMs;

  // The healthy partitions are done; watch the blocked one hold its backlog in the topic.
  const observeStart = rss.sample();
  await sleep(memory.observeMs);
  const observeEnd = rss.sample();
  clearInterval(heldWatch);
  const state = blockedState();
  maxHeld = Math.max(maxHeld, state?.deliveredCount ?? 0);
  const timeline = rss.stop();
  const maxBatch = probe.maxBatchSize();
  const waitingInTopic = spec.endOffsets[blocked]! - (state?.deliveredCount ?? 0);
  const { peakRssBytes } = await bench.stop(1_000);

  const observed = timeline.filter((s) => s.atMs >= observeStart.atMs);
  const rssDuringObservation = observed.map((s) => s.rssBytes);
  return bench.measurement({
    records: healthy.reduce((sum, p) => sum + spec.endOffsets[p]!, 0),
    startEpochMs,
    endEpochMs,
    peakRssBytes,
    details: {
      backlogRecords: spec.endOffsets[blocked]!,
      heldMax: maxHeld,
      // The documented bound per partition (packages/consumer/src/core/README.md, "Memory bound"): maxPendingPerPartition
      // plus one fetched batch, which is accepted whole before the pause takes effect.
      heldBound: maxPending + maxBatch,
      maxPendingPerPartition: maxPending,
      maxBatchSize: maxBatch,
      blockedPaused: state?.paused ?? null,
      waitingInTopic,
      observeMs: memory.observeMs,
      rssObserveStartBytes: observeStart.rssBytes,
      rssObserveEndBytes: observeEnd.rssBytes,
      rssObserveMaxBytes: Math.max(...rssDuringObservation),
      rssObserveMinBytes: Math.min(...rssDuringObservation),
    },
    rssTimeline: timeline,
  });
}
