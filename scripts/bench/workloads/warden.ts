import type { Admission, SourceRecord } from '../../../worker/core/types';
import { createKafka } from '../../../lib/kafka/client';
import { createConsumer } from '../../../worker/kafka/warden-consumer';
import { CommitTracker } from '../commit-tracker';
import { LatencyRecorder } from '../latency-recorder';
import { epochNowMs, type ChildSpec, type Measurement } from '../protocol';
import { partitionDoneMs, peakRssBytes, probeKafka, sleep, watchedRecords } from './probe';

// Warden's consumer (createConsumer, the library entry point) with a no-op or fixed-latency handler.
// Admission is as cheap as the raw consumer's nothing: a record is an event if its value starts with
// '{' (the head-of-line workload's poison does not), and in key mode its ordering key is the record
// key. Latency is the time a record spends inside the consumer: admitted → its handler resolved.

const OPEN_BRACE = 0x7b;

export async function runWarden(spec: ChildSpec, groupId: string): Promise<Measurement> {
  const settings = spec.warden;
  if (!settings) throw new Error(`workload ${spec.workload}: the warden settings are missing`);
  const probe = probeKafka(createKafka({ brokers: spec.brokers, clientId: `bench-${spec.workload}` }));
  const total = spec.endOffsets.reduce((sum, n) => sum + n, 0);
  const tracker = new CommitTracker(spec.endOffsets, spec.watchedPartitions);
  const latency = new LatencyRecorder(total);
  const keyed = settings.ordering === 'key';
  const io = spec.handlerMs;
  let quarantined: string | null = null;
  let lastCompletionEpochMs = 0;

  const admit = (record: SourceRecord): Admission<number> =>
    record.value !== null && record.value[0] === OPEN_BRACE
      ? { ok: true, value: performance.now(), orderingKey: keyed && record.key ? record.key.toString() : null }
      : { ok: false, reason: 'value is not an event', errorClass: 'malformed' };

  const consumer = createConsumer<number>({
    kafka: probe.kafka,
    groupId,
    topics: [spec.topic],
    fromBeginning: true,
    admit,
    handle:
      io > 0
        ? async (admittedAt) => {
            await sleep(io);
            latency.add(performance.now() - admittedAt);
            lastCompletionEpochMs = epochNowMs();
          }
        : async (admittedAt) => {
            latency.add(performance.now() - admittedAt);
          },
    ordering: settings.ordering,
    quarantinePolicy: 'pause',
    maxInFlight: settings.maxInFlight,
    maxInFlightPerPartition: settings.maxInFlightPerPartition,
    maxPendingPerPartition: settings.maxPendingPerPartition,
    commitIntervalMs: settings.commitIntervalMs,
    onEvent: (event) => {
      if (event.type === 'committed') {
        const at = epochNowMs();
        for (const request of event.requests) tracker.observe(request.partition, request.offset, at);
      } else if (event.type === 'quarantined') {
        quarantined = `${event.quarantine.partition}@${event.quarantine.offset}`;
      }
    },
  });
  const baselineRssBytes = process.memoryUsage.rss();
  await consumer.start();
  const endEpochMs = await tracker.finished();
  const peak = peakRssBytes();
  const counters = consumer.core.snapshot().counters;
  await consumer.stop(5_000);
  const startEpochMs = probe.firstFetchEpochMs() ?? endEpochMs;
  return {
    records: watchedRecords(spec.endOffsets, spec.watchedPartitions),
    startEpochMs,
    endEpochMs,
    latency: latency.summary(),
    peakRssBytes: peak,
    baselineRssBytes,
    partitionDoneMs: partitionDoneMs(spec.endOffsets, (p) => tracker.partitionDoneAt(p), startEpochMs),
    details: {
      maxBatchSize: probe.maxBatchSize(),
      quarantined,
      commits: counters.commits,
      handled: counters.handled,
      droppedDeliveries: counters.droppedDeliveries,
      ...(io > 0 ? { lastCompletionEpochMs } : {}),
    },
  };
}
