import type { Kafka } from 'kafkajs';
import { createKafka } from '../../../lib/kafka/client';
import { createConsumer, type WardenConsumer, type WardenConsumerOptions } from '@warden/consumer';
import { CommitTracker } from '../commit-tracker';
import { LatencyRecorder } from '../latency-recorder';
import { epochNowMs, type ChildSpec, type Measurement } from '../protocol';
import { partitionDoneMs, peakRssBytes, probeKafka, type KafkaProbe } from './probe';

// The set-up every Warden workload shares: Warden's consumer (createConsumer, the library entry point) on
// the spec's topic from its beginning with the spec's settings, a probed Kafka client, a latency recorder
// and, unless a workload counts completions itself, the commit tracker that says when it is finished. A
// workload brings only its admission, its handler and what it reports.

/** What a workload decides; everything else comes from the spec. */
export type WorkloadConsumerOptions<T> = Pick<
  WardenConsumerOptions<T>,
  'admit' | 'handle' | 'handleBatch' | 'classifyError' | 'onPermanentFailure' | 'quarantinePolicy' | 'onEvent'
>;

export interface WardenWorkloadOptions {
  /** Partitions whose commits must reach their end (default every one); null: no commit tracking. */
  watchedPartitions?: readonly number[] | null;
  /** Latencies the recorder holds (default the spec's records). */
  latencyCapacity?: number;
}

export class WardenWorkload<T> {
  readonly settings: NonNullable<ChildSpec['warden']>;
  /** The unprobed client, for producers the workload needs. */
  readonly kafka: Kafka;
  readonly probe: KafkaProbe;
  readonly tracker: CommitTracker | null;
  readonly latency: LatencyRecorder;
  private consumerInstance: WardenConsumer<T> | null = null;
  private baselineRssBytes = 0;

  /** Throws naming the workload when the spec has no Warden settings. */
  constructor(
    readonly spec: ChildSpec,
    private readonly groupId: string,
    options: WardenWorkloadOptions = {},
  ) {
    if (!spec.warden) throw new Error(`workload ${spec.workload}: the warden settings are missing`);
    this.settings = spec.warden;
    this.kafka = createKafka({ brokers: spec.brokers, clientId: `bench-${spec.workload}` });
    this.probe = probeKafka(this.kafka, groupId);
    this.tracker =
      options.watchedPartitions === null
        ? null
        : new CommitTracker(spec.endOffsets, options.watchedPartitions ?? spec.watchedPartitions);
    this.latency = new LatencyRecorder(options.latencyCapacity ?? spec.endOffsets.reduce((sum, n) => sum + n, 0));
  }

  get consumer(): WardenConsumer<T> {
    if (!this.consumerInstance) throw new Error(`workload ${this.spec.workload}: createConsumer was not called`);
    return this.consumerInstance;
  }

  /** The consumer with the spec's settings; commits are fed to the tracker before the workload's onEvent. */
  createConsumer(options: WorkloadConsumerOptions<T>): WardenConsumer<T> {
    const { tracker } = this;
    const { onEvent } = options;
    this.consumerInstance = createConsumer<T>({
      ...options,
      kafka: this.probe.kafka,
      groupId: this.groupId,
      topics: [this.spec.topic],
      fromBeginning: true,
      ordering: this.settings.ordering,
      maxInFlight: this.settings.maxInFlight,
      maxInFlightPerPartition: this.settings.maxInFlightPerPartition,
      maxPendingPerPartition: this.settings.maxPendingPerPartition,
      batchSize: this.settings.batchSize,
      commitIntervalMs: this.settings.commitIntervalMs,
      retry: this.settings.retry,
      // With its own clientId, so its instance id names the workload rather than the default group id.
      control: this.spec.control && {
        topicPrefix: this.spec.control.topicPrefix,
        clientId: `bench-${this.spec.workload}`,
      },
      onEvent:
        tracker === null
          ? onEvent
          : (event) => {
              if (event.type === 'committed') {
                const at = epochNowMs();
                for (const request of event.requests) tracker.observe(request.partition, request.offset, at);
              }
              onEvent?.(event);
            },
    });
    return this.consumerInstance;
  }

  /** Records the baseline RSS (runtime and libraries loaded) and starts the consumer. */
  async start(): Promise<void> {
    this.baselineRssBytes = process.memoryUsage.rss();
    await this.consumer.start();
  }

  /** When every watched partition's commit reached its end (epoch ms). */
  finished(): Promise<number> {
    if (!this.tracker) throw new Error(`workload ${this.spec.workload}: commits are not tracked`);
    return this.tracker.finished();
  }

  /**
   * The peak RSS, the core's counters and the control plane's (null when it is off) while it still runs, then
   * a stop with `drainMs` to finish.
   */
  async stop(drainMs: number) {
    const peak = peakRssBytes();
    const counters = this.consumer.core.snapshot().counters;
    const control = this.consumer.control?.stats() ?? null;
    await this.consumer.stop(drainMs);
    return { peakRssBytes: peak, counters, control };
  }

  /** The measurement's common fields; per-partition done times from the tracker unless given. */
  measurement(
    fields: Pick<Measurement, 'records' | 'startEpochMs' | 'endEpochMs' | 'peakRssBytes' | 'details'> &
      Partial<Pick<Measurement, 'partitionDoneMs' | 'rssTimeline'>>,
  ): Measurement {
    const { tracker } = this;
    return {
      latency: this.latency.summary(),
      baselineRssBytes: this.baselineRssBytes,
      partitionDoneMs:
        tracker === null
          ? this.spec.endOffsets.map(() => null)
          : partitionDoneMs(this.spec.endOffsets, (p) => tracker.partitionDoneAt(p), fields.startEpochMs),
      ...fields,
    };
  }
}
