import {
  CONTROL_PROTOCOL_VERSION,
  type TCommandOutcome,
  type THold,
  type TInstanceState,
  type TPartitionState,
  type TRebalanceStop,
} from '@warden/consumer';

// Hand-built control-plane states for the tests of the worker's side: what a consumer instance publishes on
// `<prefix>.state`, with every field filled, overridable in part.

export function instanceStateOf(overrides: Partial<TInstanceState> = {}): TInstanceState {
  return {
    v: CONTROL_PROTOCOL_VERSION,
    type: 'instance-state',
    groupId: 'orders',
    instanceId: 'orders-svc@pod-1/7',
    clientId: 'orders-svc',
    host: 'pod-1',
    pid: 7,
    packageVersion: '0.1.0',
    startedAtMs: Date.parse('2026-12-07T10:00:00Z'),
    publishedAtMs: Date.parse('2026-12-07T10:05:00Z'),
    stateIntervalMs: 5_000,
    status: 'running',
    ready: true,
    readinessDetail: 'consuming',
    topics: ['orders'],
    assignment: [],
    partitions: [],
    holds: [],
    rebalances: [],
    outcomes: [],
    refused: { count: 0, recent: [] },
    truncated: false,
    ...overrides,
  };
}

export function partitionStateOf(overrides: Partial<TPartitionState> = {}): TPartitionState {
  return {
    topic: 'orders',
    partition: 0,
    watermark: null,
    highestCompleted: null,
    inFlight: 0,
    completedUncommitted: 0,
    buffered: 0,
    bufferedBytes: 0,
    oldestUnfinishedOffset: null,
    oldestUnfinishedAgeMs: null,
    paused: false,
    ...overrides,
  };
}

export function holdOf(overrides: Partial<THold> = {}): THold {
  return {
    topic: 'orders',
    partition: 0,
    offset: '5',
    sinceMs: Date.parse('2026-12-07T10:04:00Z'),
    reason: 'missing field "amount"',
    errorClass: 'schema',
    attempts: 0,
    key: 'order-5',
    value: '{"id":5}',
    headers: {},
    timestampMs: Date.parse('2026-12-07T10:03:59Z'),
    ...overrides,
  };
}

export function rebalanceStopOf(overrides: Partial<TRebalanceStop> = {}): TRebalanceStop {
  return {
    memberId: 'orders-svc-1a2b',
    leaderId: 'orders-svc-1a2b',
    isLeader: true,
    groupProtocol: 'RoundRobinAssigner',
    cause: 'rebalance',
    startedAtMs: Date.parse('2026-12-07T10:01:00Z'),
    endedAtMs: Date.parse('2026-12-07T10:01:00.250Z'),
    assignmentBefore: [],
    assignmentAfter: [],
    ...overrides,
  };
}

export function outcomeOf(overrides: Partial<TCommandOutcome> & Pick<TCommandOutcome, 'commandId'>): TCommandOutcome {
  return {
    action: 'skip',
    topic: 'orders',
    partition: 0,
    status: 'done',
    outcome: 'skipped offset 5 without processing; reading continues at 6',
    liftedOffset: '5',
    appliedAtMs: Date.parse('2026-12-07T10:04:30Z'),
    ...overrides,
  };
}
