// The types the kafkajs side of the package shares with its host: the logger it takes, a measured
// rebalance stop and readiness.
import type { TopicPartition } from '../core/index.js';

/** The structured logger every adapter takes (pino's shape; tests pass a small fake). */
export interface ConsumerLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** One stop of this member for a rebalance, measured from kafkajs's events. */
export interface RebalanceTiming {
  groupId: string;
  memberId: string;
  leaderId: string;
  isLeader: boolean;
  /** Assignor the group chose (e.g. RoundRobinAssigner). */
  groupProtocol: string;
  /**
   * 'rebalance': the group rebalanced under this running member (kafkajs REBALANCING); 'join': this member
   * joined from scratch (start-up, after a crash, or after the supervisor rebuilt the kafkajs consumer).
   */
  cause: 'rebalance' | 'join';
  /** When this member stopped: REBALANCING, the crash or rebuild, or for a first join when joining began. */
  startedAtMs: number;
  /** When the new assignment arrived (GROUP_JOIN); processing resumes from here. */
  endedAtMs: number;
  assignmentBefore: TopicPartition[];
  assignmentAfter: TopicPartition[];
}

/** Whether this worker demonstrably makes progress; served at GET /readyz. */
export interface Readiness {
  ready: boolean;
  /** Why not ready, or what readiness is based on; shown to whoever probes. */
  detail: string;
}
