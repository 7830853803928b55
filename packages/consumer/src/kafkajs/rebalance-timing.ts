import type { Clock, TopicPartition } from '../core/index.js';
import type { ConsumerLogger, RebalanceTiming } from './consumer-types.js';

// How long this member stopped for each join, on the injected clock.
//
// A stop starts at REBALANCING (cause 'rebalance'), at a crash, or when the supervisor rebuilds the kafkajs
// consumer (cause 'join'); the first of them wins until the next GROUP_JOIN ends it. A join with no stop
// before it (the first one) started when kafkajs began joining: `duration` of the GROUP_JOIN payload before
// the join. The report runs on kafkajs's event path: a throwing callback is logged and swallowed.

/** The GROUP_JOIN payload fields a timing is made of. */
export interface GroupJoinPayload {
  duration: number;
  groupId: string;
  isLeader: boolean;
  leaderId: string;
  groupProtocol: string;
  memberId: string;
}

export class RebalanceTimer {
  /** Start of the current stop until the next join; null while running. */
  private stopStartedAtMs: number | null = null;
  private stopCause: RebalanceTiming['cause'] = 'join';

  constructor(
    private readonly clock: Clock,
    private readonly onRebalance: ((timing: RebalanceTiming) => void) | undefined,
    private readonly logger: ConsumerLogger | undefined,
  ) {}

  /** This member stopped consuming; a stop already under way keeps its start and cause. */
  stopped(cause: RebalanceTiming['cause']): void {
    if (this.stopStartedAtMs !== null) return;
    this.stopStartedAtMs = this.clock.now();
    this.stopCause = cause;
  }

  /** The join that ends the current stop; reports it and returns what it reported. */
  joined(
    payload: GroupJoinPayload,
    assignmentBefore: TopicPartition[],
    assignmentAfter: TopicPartition[],
  ): RebalanceTiming {
    const endedAtMs = this.clock.now();
    const startedAtMs = this.stopStartedAtMs ?? endedAtMs - Math.max(0, payload.duration);
    const cause = this.stopStartedAtMs === null ? 'join' : this.stopCause;
    this.stopStartedAtMs = null;
    const timing: RebalanceTiming = {
      groupId: payload.groupId,
      memberId: payload.memberId,
      leaderId: payload.leaderId,
      isLeader: payload.isLeader,
      groupProtocol: payload.groupProtocol,
      cause,
      startedAtMs,
      endedAtMs,
      assignmentBefore,
      assignmentAfter,
    };
    try {
      this.onRebalance?.(timing);
    } catch (error) {
      this.logger?.warn({ err: error }, 'onRebalance callback failed');
    }
    return timing;
  }
}
