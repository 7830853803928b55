import { CONSUMER_CORE_DEFAULTS } from '../../../worker/core';
import type { Admission, HandlerContext, SourceRecord } from '../../../worker/core/types';
import { createKafka } from '../../../lib/kafka/client';
import { createConsumer } from '../../../worker/kafka/warden-consumer';
import { CommitTracker } from '../commit-tracker';
import { LatencyRecorder } from '../latency-recorder';
import { BLOCKER_KEY } from '../records';
import { epochNowMs, type ChildSpec, type Measurement } from '../protocol';
import { partitionDoneMs, peakRssBytes, probeKafka, RssSampler, sleep } from './probe';

// One partition blocked by a record whose handler never completes, with a large backlog behind it.
// The commit cannot pass the blocker, so every record fetched after it stays pending; the core must pause
// the partition at maxPendingPerPartition (plus the batch already fetched) and memory must stay flat
// while the backlog waits in the topic. The healthy partitions must finish meanwhile.

export async function runMemory(spec: ChildSpec, groupId: string): Promise<Measurement> {
  const settings = spec.warden;
  const memory = spec.memory;
  if (!settings || !memory) throw new Error(`workload ${spec.workload}: warden or memory settings are missing`);
  const blocked = memory.blockedPartition;
  const healthy = spec.endOffsets.map((_, p) => p).filter((p) => p !== blocked);
  const probe = probeKafka(createKafka({ brokers: spec.brokers, clientId: `bench-${spec.workload}` }));
  const tracker = new CommitTracker(spec.endOffsets, healthy);
  const latency = new LatencyRecorder(spec.endOffsets.reduce((sum, n) => sum + n, 0));
  const blockerKey = Buffer.from(BLOCKER_KEY);
  const maxPending = settings.maxPendingPerPartition ?? CONSUMER_CORE_DEFAULTS.maxPendingPerPartition;

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

  const consumer = createConsumer<number>({
    kafka: probe.kafka,
    groupId,
    topics: [spec.topic],
    fromBeginning: true,
    admit,
    handle,
    ordering: settings.ordering,
    maxPendingPerPartition: settings.maxPendingPerPartition,
    commitIntervalMs: settings.commitIntervalMs,
    onEvent: (event) => {
      if (event.type !== 'committed') return;
      const at = epochNowMs();
      for (const request of event.requests) tracker.observe(request.partition, request.offset, at);
    },
  });

  let maxHeld = 0;
  const blockedState = () => consumer.core.snapshot().partitions.find((p) => p.partition === blocked);
  const rss = new RssSampler();
  const baselineRssBytes = process.memoryUsage.rss();
  rss.start(200);
  const heldWatch = setInterval(() => {
    maxHeld = Math.max(maxHeld, blockedState()?.deliveredCount ?? 0);
  }, 50);
  await consumer.start();
  const endEpochMs = await tracker.finished();
  const startEpochMs = probe.firstFetchEpochMs() ?? endEpochMs;

  // The healthy partitions are done; watch the blocked one hold its backlog in the topic.
  const observeStart = rss.sample();
  await sleep(memory.observeMs);
  const observeEnd = rss.sample();
  clearInterval(heldWatch);
  const state = blockedState();
  maxHeld = Math.max(maxHeld, state?.deliveredCount ?? 0);
  const timeline = rss.stop();
  const peak = peakRssBytes();
  const maxBatch = probe.maxBatchSize();
  const waitingInTopic = spec.endOffsets[blocked]! - (state?.deliveredCount ?? 0);
  await consumer.stop(1_000);

  const observed = timeline.filter((s) => s.atMs >= observeStart.atMs);
  const rssDuringObservation = observed.map((s) => s.rssBytes);
  return {
    records: healthy.reduce((sum, p) => sum + spec.endOffsets[p]!, 0),
    startEpochMs,
    endEpochMs,
    latency: latency.summary(),
    peakRssBytes: peak,
    baselineRssBytes,
    partitionDoneMs: partitionDoneMs(spec.endOffsets, (p) => tracker.partitionDoneAt(p), startEpochMs),
    details: {
      backlogRecords: spec.endOffsets[blocked]!,
      heldMax: maxHeld,
      // The documented bound per partition (worker/core/README.md, "Memory bound"): maxPendingPerPartition
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
  };
}
