import type { Admission, SourceRecord } from '@warden/consumer';
import { epochNowMs, type ChildSpec, type Measurement } from '../protocol';
import { WardenWorkload } from './warden-harness';
import { seededRandom } from '../../../test-support/seeded-random';

// The keyed-retries workload (docs/developing/scenarios.md, "Keyed retries"): key mode, a handler failing transiently on
// a fixed share of attempts (retried with the core's backoff), the orchestrator producing while this
// consumer runs. Latency is end to end: the record's producer timestamp → its handler succeeded. An order
// violation is a record starting while an earlier record of its key has not completed.

class InjectedTransientError extends Error {
  override name = 'InjectedTransientError';
}

interface KeyedEvent {
  keyIndex: number;
  sequence: number;
}

export async function runKeyedRetries(
  spec: ChildSpec,
  groupId: string,
  onReady: () => Promise<void>,
): Promise<Measurement> {
  const workload = spec.keyedRetries;
  if (!workload) throw new Error(`workload ${spec.workload}: the keyedRetries settings are missing`);
  // Completions are counted here (the orchestrator produces meanwhile), not by commits.
  const bench = new WardenWorkload<KeyedEvent>(spec, groupId, {
    watchedPartitions: null,
    latencyCapacity: workload.records,
  });
  const { latency, probe } = bench;
  const lastCompleted = new Array<number>(workload.keys).fill(-1);
  const fail = seededRandom(1);
  let completed = 0;
  let violations = 0;
  let duplicates = 0;
  let failures = 0;
  let lastCompletionEpochMs = 0;
  let finish: () => void = () => undefined;
  const allCompleted = new Promise<void>((resolve) => {
    finish = resolve;
  });

  const admit = (record: SourceRecord): Admission<KeyedEvent> => {
    try {
      const event = JSON.parse(record.value?.toString() ?? '') as { businessId: string; sequence: number };
      const keyIndex = Number(event.businessId.slice('key-'.length));
      if (!Number.isInteger(keyIndex) || keyIndex < 0 || keyIndex >= workload.keys)
        throw new Error(`unknown key ${event.businessId}`);
      return { ok: true, value: { keyIndex, sequence: event.sequence }, orderingKey: event.businessId };
    } catch (error) {
      return { ok: false, reason: (error as Error).message, errorClass: 'malformed' };
    }
  };

  const handle = async ({ keyIndex, sequence }: KeyedEvent, record: SourceRecord): Promise<void> => {
    const last = lastCompleted[keyIndex]!;
    if (sequence <= last) {
      duplicates++;
      return;
    }
    if (sequence > last + 1) violations++;
    if (fail() < workload.transientErrorRate) {
      failures++;
      throw new InjectedTransientError(`injected failure of ${record.partition}@${record.offset}`);
    }
    lastCompleted[keyIndex] = sequence;
    const now = epochNowMs();
    latency.add(now - record.timestampMs);
    lastCompletionEpochMs = now;
    if (++completed === workload.records) finish();
  };

  bench.createConsumer({
    admit,
    handle,
    classifyError: (error) => (error instanceof InjectedTransientError ? 'transient' : 'permanent'),
  });
  await bench.start();
  await probe.joined();
  await onReady();
  await allCompleted;
  const { peakRssBytes, counters } = await bench.stop(5_000);
  return bench.measurement({
    records: workload.records,
    // The orchestrator replaces the start with its first produce.
    startEpochMs: probe.firstFetchEpochMs() ?? lastCompletionEpochMs,
    endEpochMs: lastCompletionEpochMs,
    peakRssBytes,
    details: {
      violations,
      duplicates,
      injectedFailures: failures,
      retries: counters.retries,
      commits: counters.commits,
    },
  });
}
