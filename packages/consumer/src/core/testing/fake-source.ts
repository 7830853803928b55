// A SourcePort that records every call, tracks pause state, and can be told to throw or reject.

import { topicPartitionKey } from '../topic-partition.js';
import type { CommitRequest, Offset, SourcePort, TopicPartition } from '../types.js';

export type SourceCall =
  | { op: 'pause' | 'resume'; topic: string; partition: number }
  | { op: 'seek'; topic: string; partition: number; offset: Offset }
  | { op: 'commit'; requests: CommitRequest[] };

export class FakeSource implements SourcePort {
  readonly calls: SourceCall[] = [];
  /** Successful commits, in order. */
  readonly commits: CommitRequest[][] = [];
  private readonly pausedKeys = new Set<string>();
  /** Set to make the next call of that kind throw (consumed by one call). */
  failNext: { pause?: Error; resume?: Error; seek?: Error } = {};
  private readonly commitFailures: unknown[] = [];
  /** When set, commits wait for the test to settle them. */
  private holdCommits = false;
  private readonly heldCommits: Array<{
    resolve: () => void;
    reject: (err: unknown) => void;
    requests: CommitRequest[];
  }> = [];

  pause(tp: TopicPartition): void {
    this.calls.push({ op: 'pause', topic: tp.topic, partition: tp.partition });
    this.throwIfTold('pause');
    this.pausedKeys.add(topicPartitionKey(tp));
  }

  resume(tp: TopicPartition): void {
    this.calls.push({ op: 'resume', topic: tp.topic, partition: tp.partition });
    this.throwIfTold('resume');
    this.pausedKeys.delete(topicPartitionKey(tp));
  }

  seek(tp: TopicPartition, offset: Offset): void {
    this.calls.push({ op: 'seek', topic: tp.topic, partition: tp.partition, offset });
    this.throwIfTold('seek');
  }

  commit(requests: CommitRequest[]): Promise<void> {
    const copy = requests.map((request) => ({ ...request }));
    this.calls.push({ op: 'commit', requests: copy });
    if (this.commitFailures.length > 0) return Promise.reject(this.commitFailures.shift());
    if (this.holdCommits) {
      return new Promise<void>((resolve, reject) => {
        this.heldCommits.push({ resolve: () => (this.commits.push(copy), resolve()), reject, requests: copy });
      });
    }
    this.commits.push(copy);
    return Promise.resolve();
  }

  /** The next `times` commits reject with `error`. */
  rejectCommits(error: unknown, times = 1): void {
    for (let index = 0; index < times; index++) this.commitFailures.push(error);
  }

  holdNextCommits(hold = true): void {
    this.holdCommits = hold;
  }

  get heldCommitCount(): number {
    return this.heldCommits.length;
  }

  releaseHeldCommit(): CommitRequest[] {
    const held = this.heldCommits.shift();
    if (!held) throw new Error('no held commit');
    held.resolve();
    return held.requests;
  }

  isPaused(tp: TopicPartition): boolean {
    return this.pausedKeys.has(topicPartitionKey(tp));
  }

  seeks(tp?: TopicPartition): Offset[] {
    return this.calls
      .filter((call): call is Extract<SourceCall, { op: 'seek' }> => call.op === 'seek')
      .filter((call) => !tp || (call.topic === tp.topic && call.partition === tp.partition))
      .map((call) => call.offset);
  }

  pauseCalls(tp: TopicPartition, op: 'pause' | 'resume'): number {
    return this.calls.filter((call) => call.op === op && call.topic === tp.topic && call.partition === tp.partition)
      .length;
  }

  /** Offset of the latest successful commit for the partition, or undefined. */
  committed(tp: TopicPartition): CommitRequest | undefined {
    for (let index = this.commits.length - 1; index >= 0; index--) {
      const found = this.commits[index]!.find(
        (request) => request.topic === tp.topic && request.partition === tp.partition,
      );
      if (found) return found;
    }
    return undefined;
  }

  private throwIfTold(op: 'pause' | 'resume' | 'seek'): void {
    const error = this.failNext[op];
    if (error) {
      delete this.failNext[op];
      throw error;
    }
  }
}
