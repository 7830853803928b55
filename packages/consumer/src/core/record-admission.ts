// Admission of one partition's delivery: each record above the partition's read position becomes a tracked
// `RecordEntry`; one already known complete (commit metadata, an earlier call, an operator skip) completes at
// once; every other one is checked by the host's `admit` before it can take a slot, and joins its ordering
// lane, or goes to the failure paths when admission fails or throws.
//
// Invariants:
// - Records at or below the read position are ignored (redelivered copies); every other record of the
//   delivery is accepted, or dropped with the rest of the delivery once the partition is quarantined
//   (`accepted + ignored + dropped` is the delivery's size).
// - An admitted record joins exactly one lane: its ordering key's ('key'; records without a key share one
//   lane, '' is a key of its own), the partition's ('partition'), or a lane of its own ('unordered').
// - A failing or throwing `admit` never takes a lane or a slot.

import type { Completion } from './completion.js';
import { skipOutcome } from './completion.js';
import { describeError } from './classify-error.js';
import type { CoreEvents } from './core-events.js';
import type { FailurePaths } from './failure-paths.js';
import { SOLO_LANE, type LaneKey } from './lane-table.js';
import { payloadBytes, RecordEntry, type OwnedPartition } from './record-entry.js';
import type { Admission, CoreCounters, DropReason, OrderingMode, SourceRecord, TopicPartition } from './types.js';

export interface DeliverResult {
  accepted: number;
  /** Already delivered or below the current read position (redelivered copies). */
  ignored: number;
  /** Not taken because of the partition's or the core's state; the source will deliver them again. */
  dropped: number;
}

export interface RecordAdmissionPorts<T> {
  /** The host's admission check, read at every record. */
  host: { readonly admit: (record: SourceRecord) => Admission<T> };
  ordering: OrderingMode;
  counters: CoreCounters;
  events: CoreEvents;
  completion: Pick<Completion<T>, 'complete'>;
  failures: Pick<FailurePaths<T>, 'admissionFailed'>;
}

export class RecordAdmission<T> {
  private readonly host: { readonly admit: (record: SourceRecord) => Admission<T> };
  private readonly ordering: OrderingMode;
  private readonly counters: CoreCounters;
  private readonly events: CoreEvents;
  private readonly completion: Pick<Completion<T>, 'complete'>;
  private readonly failures: Pick<FailurePaths<T>, 'admissionFailed'>;

  constructor(ports: RecordAdmissionPorts<T>) {
    this.host = ports.host;
    this.ordering = ports.ordering;
    this.counters = ports.counters;
    this.events = ports.events;
    this.completion = ports.completion;
    this.failures = ports.failures;
  }

  /**
   * Takes a checked delivery of `partition`: `offsetValues[i]` is the parsed offset of `records[i]`, `order`
   * the positions in ascending offset order (null: already ascending). The first record that quarantines the
   * partition drops the rest of the delivery (it is delivered again after the quarantine is lifted).
   */
  take(
    partition: OwnedPartition<T>,
    records: readonly SourceRecord[],
    offsetValues: readonly bigint[],
    order: readonly number[] | null,
    deliveredAtMs: number,
    result: DeliverResult,
  ): void {
    for (let index = 0; index < records.length; index++) {
      const position = order === null ? index : order[index]!;
      const record = records[position]!;
      const offsetValue = offsetValues[position]!;
      if (partition.quarantine) {
        this.drop(partition, records.length - index, 'quarantined', result);
        break;
      }
      if (!partition.accepts(offsetValue)) {
        result.ignored++;
        continue;
      }
      const entry = new RecordEntry<T>(
        partition,
        record,
        record.offset,
        offsetValue,
        deliveredAtMs,
        payloadBytes(record),
      );
      partition.append(entry);
      result.accepted++;

      const knownComplete = partition.skip.size > 0 ? partition.skip.get(entry.offset) : undefined;
      if (knownComplete !== undefined) {
        partition.skip.delete(entry.offset);
        this.completion.complete(entry, skipOutcome(knownComplete));
        continue;
      }
      this.admit(partition, entry, record);
    }
  }

  /** Drops `count` records of a delivery (the source delivers them again). */
  drop(tp: TopicPartition, count: number, reason: DropReason, result: DeliverResult): void {
    result.dropped += count;
    this.counters.droppedDeliveries += count;
    this.events.emit({ type: 'batch-dropped', topic: tp.topic, partition: tp.partition, count, reason });
  }

  private admit(partition: OwnedPartition<T>, entry: RecordEntry<T>, record: SourceRecord): void {
    let admission: Admission<T>;
    try {
      admission = this.host.admit(record);
    } catch (err) {
      admission = { ok: false, reason: `admission threw: ${describeError(err)}`, errorClass: 'admission-error' };
    }
    if (admission.ok) {
      entry.value = admission.value;
      partition.lanes.enqueue(this.laneKeyFor(admission.orderingKey), entry);
      return;
    }
    this.failures.admissionFailed(entry, admission.reason, admission.errorClass);
  }

  private laneKeyFor(orderingKey: string | null): LaneKey | typeof SOLO_LANE {
    switch (this.ordering) {
      case 'partition':
        return '';
      case 'unordered':
        return SOLO_LANE;
      case 'key':
        return orderingKey;
    }
  }
}
