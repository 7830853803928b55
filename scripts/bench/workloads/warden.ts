import type { Admission, SourceRecord } from '@warden/consumer';
import { epochNowMs, type ChildSpec, type Measurement } from '../protocol';
import { sleep, watchedRecords } from './probe';
import { WardenWorkload } from './warden-harness';

// Warden's consumer (warden-harness.ts) with a no-op or fixed-latency handler.
// Admission is as cheap as the raw consumer's nothing: a record is an event if its value starts with
// '{' (the head-of-line workload's poison does not), and in key mode its ordering key is the record
// key. Latency is the time a record spends inside the consumer: admitted → its handler resolved.

const OPEN_BRACE = 0x7b;

export async function runWarden(spec: ChildSpec, groupId: string): Promise<Measurement> {
  const bench = new WardenWorkload<number>(spec, groupId);
  const { latency, probe } = bench;
  const keyed = bench.settings.ordering === 'key';
  const io = spec.handlerMs;
  let quarantined: string | null = null;
  let lastCompletionEpochMs = 0;
  /** Simulated I/O as the timers delivered it (a 5 ms sleep takes longer on a busy event loop). */
  let ioMsTotal = 0;

  const admit = (record: SourceRecord): Admission<number> =>
    record.value !== null && record.value[0] === OPEN_BRACE
      ? { ok: true, value: performance.now(), orderingKey: keyed && record.key ? record.key.toString() : null }
      : { ok: false, reason: 'value is not an event', errorClass: 'malformed' };

  bench.createConsumer({
    admit,
    handle:
      io > 0
        ? async (admittedAt) => {
            const sleptFrom = performance.now();
            await sleep(io);
            ioMsTotal += performance.now() - sleptFrom;
            latency.add(performance.now() - admittedAt);
            lastCompletionEpochMs = epochNowMs();
          }
        : async (admittedAt) => {
            latency.add(performance.now() - admittedAt);
          },
    quarantinePolicy: 'pause',
    onEvent: (event) => {
      if (event.type === 'quarantined') quarantined = `${event.quarantine.partition}@${event.quarantine.offset}`;
    },
  });
  await bench.start();
  const endEpochMs = await bench.finished();
  const { peakRssBytes, counters, control } = await bench.stop(5_000);
  const startEpochMs = probe.firstFetchEpochMs() ?? endEpochMs;
  return bench.measurement({
    records: watchedRecords(spec.endOffsets, spec.watchedPartitions),
    startEpochMs,
    endEpochMs,
    peakRssBytes,
    details: {
      maxBatchSize: probe.maxBatchSize(),
      quarantined,
      commits: counters.commits,
      handled: counters.handled,
      droppedDeliveries: counters.droppedDeliveries,
      // With the control plane on: what it published from the start until the last commit was seen.
      ...(control
        ? { controlStatesPublished: control.statesPublished, controlPublishedBytes: control.publishedBytes }
        : {}),
      ...(io > 0 ? { lastCompletionEpochMs, meanIoMs: counters.handled === 0 ? 0 : ioMsTotal / counters.handled } : {}),
    },
  });
}
