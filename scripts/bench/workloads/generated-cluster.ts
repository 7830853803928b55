import type { ClusterReaderPort } from '../../../lib/kafka/cluster-reader';
import type {
  ClusterObservation,
  GroupSnapshot,
  RecordReadRequest,
  RecordReadResult,
  TopicWatermarks,
} from '../../../lib/kafka/cluster-observation';

// A generated cluster for the sampler's compute and write path at fleet size (2,000 groups x 50 partitions),
// which no local broker on this machine can hold. Every group reads its own topic, so what scales with
// topic-partitions (log_end_point, watermarks) is at full size too. Each round a fixed share of the groups
// is busy (a window that moves on by 7 groups a round): their log ends move by a few records per partition
// and their commits follow; the other groups are idle and caught up (nothing appended, nothing to commit).
// Every group has `membersPerGroup` members with a round-robin assignment, so member columns and rebalance
// inference see real shapes. Deterministic: the same options give the same rounds.

export interface GeneratedClusterOptions {
  groups: number;
  partitions: number;
  /** Share of groups whose partitions move each round (0..1). */
  busyShare: number;
  membersPerGroup: number;
  /** Topic and group names start with this. */
  prefix: string;
  /** The timestamp a record read for exact time lag reports: now minus this. */
  recordAgeMs: number;
  now: () => number;
}

export class GeneratedCluster implements ClusterReaderPort {
  private round = 0;
  private readonly logEnds: Float64Array;
  private readonly commits: Float64Array;

  constructor(private readonly options: GeneratedClusterOptions) {
    const size = options.groups * options.partitions;
    this.logEnds = new Float64Array(size).fill(1_000);
    this.commits = new Float64Array(size).fill(1_000);
  }

  topicOf(group: number): string {
    return `${this.options.prefix}.t${String(group).padStart(5, '0')}`;
  }

  groupIdOf(group: number): string {
    return `${this.options.prefix}.g${String(group).padStart(5, '0')}`;
  }

  /** Whether group g moves in the current round: a rotating window of busyShare x groups. */
  isBusy(group: number): boolean {
    const { groups, busyShare } = this.options;
    const busy = Math.round(groups * busyShare);
    const start = (this.round * 7) % groups;
    return (group - start + groups) % groups < busy;
  }

  /** `select`: sharded sampling's group filter; groups left out do not move (their rounds resume when selected). */
  async readCluster(select?: (groupId: string) => boolean): Promise<ClusterObservation> {
    const { groups: groupCount, partitions, membersPerGroup } = this.options;
    this.round += 1;
    const groups: GroupSnapshot[] = [];
    const watermarks: TopicWatermarks[] = [];
    for (let g = 0; g < groupCount; g++) {
      if (select && !select(this.groupIdOf(g))) continue;
      const topic = this.topicOf(g);
      const busy = this.isBusy(g);
      const committed: Array<{ partition: number; offset: string }> = [];
      const marks: Array<{ partition: number; low: string; high: string }> = [];
      for (let p = 0; p < partitions; p++) {
        const i = g * partitions + p;
        // A busy group's consumers keep up except on every tenth partition (3 behind); an idle one has caught up.
        if (busy) this.logEnds[i] = this.logEnds[i]! + 5 + (p % 3);
        this.commits[i] = busy && p % 10 === 0 ? this.logEnds[i]! - 3 : this.logEnds[i]!;
        committed.push({ partition: p, offset: String(this.commits[i]) });
        marks.push({ partition: p, low: '0', high: String(this.logEnds[i]) });
      }
      const members = Array.from({ length: membersPerGroup }, (_, m) => ({
        memberId: `${this.groupIdOf(g)}-m${m}`,
        clientId: `client-${m}`,
        clientHost: `/10.0.${m}.1`,
        assignment: {
          [topic]: Array.from({ length: partitions }, (_, p) => p).filter((p) => p % membersPerGroup === m),
        },
      }));
      groups.push({
        groupId: this.groupIdOf(g),
        state: 'Stable',
        protocol: 'RoundRobinAssigner',
        members,
        committed: [{ topic, partitions: committed }],
      });
      watermarks.push({ topic, partitions: marks });
    }
    return { groups, watermarks };
  }

  async readRecordTimestamps(requests: readonly RecordReadRequest[]): Promise<RecordReadResult[]> {
    const at = this.options.now() - this.options.recordAgeMs;
    return requests.map((request) => ({ ...request, timestampMs: at }));
  }

  async disconnect(): Promise<void> {}
}
