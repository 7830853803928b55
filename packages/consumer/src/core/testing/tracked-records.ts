// Partition states and tracked records built by hand, for unit tests of the parts that read them.

import { PartitionState } from '../partition-state.js';
import { RecordEntry, type OwnedPartition } from '../record-entry.js';
import { makeRecord, TOPIC } from './harness.js';

export function ownedPartition(partition = 0, topic = TOPIC): OwnedPartition<string> {
  return new PartitionState<RecordEntry<string>>(topic, partition);
}

/** A record delivered to `owner` at `deliveredAtMs` (buffered, not started). */
export function deliverEntry(owner: OwnedPartition<string>, offset: number, deliveredAtMs = 0): RecordEntry<string> {
  const record = makeRecord(offset, { partition: owner.partition, topic: owner.topic });
  const entry = new RecordEntry<string>(owner, record, record.offset, BigInt(offset), deliveredAtMs, 0);
  owner.append(entry);
  return entry;
}
