import { describe, expect, it } from 'vitest';
import {
  classifyFailure,
  routeFailure,
  undeliverableInfo,
  type Failure,
  type FailureRoute,
  type RoutingPolicy,
} from './failure-routing.js';
import type { QuarantinePolicy } from './types.js';

const RETRY = { baseMs: 100, maxMs: 30_000 };

function policy(overrides: Partial<RoutingPolicy> = {}): RoutingPolicy {
  return {
    quarantinePolicy: 'pause',
    hasFailureResult: true,
    hasDeadLetter: true,
    retry: RETRY,
    random: () => 0.5,
    ...overrides,
  };
}

/** Every combination of the configuration a row may not depend on. */
function everyPolicy(fixed: Partial<RoutingPolicy>): RoutingPolicy[] {
  const policies: RoutingPolicy[] = [];
  for (const quarantinePolicy of ['pause', 'dead-letter'] as QuarantinePolicy[])
    for (const hasFailureResult of [true, false])
      for (const hasDeadLetter of [true, false])
        policies.push(policy({ quarantinePolicy, hasFailureResult, hasDeadLetter, ...fixed }));
  return policies;
}

/** routeFailure through its implementation signature: the overloads narrow the route per phase. */
const route = routeFailure as (failure: Failure, routing: RoutingPolicy) => FailureRoute;

interface Row {
  rule: string;
  failure: Failure;
  /** The configuration the row holds for; every other setting varies. */
  when: Partial<RoutingPolicy>;
  expected: FailureRoute;
}

const RETRY_50: FailureRoute = { action: 'retry', delayMs: 50, viaClock: true };

const TABLE: Row[] = [
  // Admission failures never retry: the quarantine policy decides.
  {
    rule: 'admission, pause',
    failure: { phase: 'admission' },
    when: { quarantinePolicy: 'pause' },
    expected: { action: 'quarantine' },
  },
  {
    rule: 'admission, dead-letter',
    failure: { phase: 'admission' },
    when: { quarantinePolicy: 'dead-letter', hasDeadLetter: true },
    expected: { action: 'dead-letter' },
  },
  {
    rule: 'admission, dead-letter policy without a port',
    failure: { phase: 'admission' },
    when: { quarantinePolicy: 'dead-letter', hasDeadLetter: false },
    expected: { action: 'quarantine' },
  },
  // Handler.
  {
    rule: 'handler, transient',
    failure: { phase: 'handle', errorClass: 'transient', attempt: 1 },
    when: {},
    expected: RETRY_50,
  },
  {
    rule: 'handler, permanent, failure result port',
    failure: { phase: 'handle', errorClass: 'permanent', attempt: 1 },
    when: { hasFailureResult: true },
    expected: { action: 'publish-failed-result' },
  },
  {
    rule: 'handler, permanent, no failure result, pause',
    failure: { phase: 'handle', errorClass: 'permanent', attempt: 3 },
    when: { hasFailureResult: false, quarantinePolicy: 'pause' },
    expected: { action: 'quarantine' },
  },
  {
    rule: 'handler, permanent, no failure result, dead-letter',
    failure: { phase: 'handle', errorClass: 'permanent', attempt: 3 },
    when: { hasFailureResult: false, quarantinePolicy: 'dead-letter', hasDeadLetter: true },
    expected: { action: 'dead-letter' },
  },
  // Failure result.
  {
    rule: 'failure result, transient',
    failure: { phase: 'permanent-failure', errorClass: 'transient', attempt: 1 },
    when: {},
    expected: RETRY_50,
  },
  {
    rule: 'failure result, permanent, pause',
    failure: { phase: 'permanent-failure', errorClass: 'permanent', attempt: 1 },
    when: { quarantinePolicy: 'pause' },
    expected: { action: 'quarantine' },
  },
  {
    rule: 'failure result, permanent, dead-letter',
    failure: { phase: 'permanent-failure', errorClass: 'permanent', attempt: 1 },
    when: { quarantinePolicy: 'dead-letter', hasDeadLetter: true },
    expected: { action: 'dead-letter' },
  },
  // Dead-letter write: the last automatic path.
  {
    rule: 'dead-letter write, transient',
    failure: { phase: 'dead-letter', errorClass: 'transient', attempt: 1 },
    when: {},
    expected: RETRY_50,
  },
  {
    rule: 'dead-letter write, permanent (whatever the policy)',
    failure: { phase: 'dead-letter', errorClass: 'permanent', attempt: 1 },
    when: {},
    expected: { action: 'quarantine' },
  },
  // Commits and source control.
  {
    rule: 'commit, transient',
    failure: { phase: 'commit', errorClass: 'transient' },
    when: {},
    expected: { action: 'retry-at-interval' },
  },
  {
    rule: 'commit, permanent',
    failure: { phase: 'commit', errorClass: 'permanent' },
    when: {},
    expected: { action: 'fatal' },
  },
  {
    rule: 'pause, resume or seek of an owned partition',
    failure: { phase: 'source-control', owned: true },
    when: {},
    expected: { action: 'fatal' },
  },
  {
    rule: 'resume of a partition being revoked',
    failure: { phase: 'source-control', owned: false },
    when: {},
    expected: { action: 'report' },
  },
];

describe('routeFailure: the decision table', () => {
  it.each(TABLE)('$rule → $expected.action', ({ failure, when, expected }) => {
    for (const routing of everyPolicy(when)) expect(route(failure, routing), JSON.stringify(routing)).toEqual(expected);
  });

  it('covers every phase, and every action is reached by some row', () => {
    const phases = new Set(TABLE.map((row) => row.failure.phase));
    expect([...phases].sort()).toEqual(
      ['admission', 'commit', 'dead-letter', 'handle', 'permanent-failure', 'source-control'].sort(),
    );
    const actions = new Set(TABLE.map((row) => row.expected.action));
    expect([...actions].sort()).toEqual(
      ['dead-letter', 'fatal', 'publish-failed-result', 'quarantine', 'report', 'retry', 'retry-at-interval'].sort(),
    );
  });
});

describe('routeFailure: retry delays', () => {
  it('backs off with full jitter per attempt of the failing phase, up to the cap', () => {
    const routing = policy({ random: () => 0.5 });
    const delays = [1, 2, 3, 10, 20].map((attempt) =>
      routeFailure({ phase: 'handle', errorClass: 'transient', attempt }, routing),
    );
    expect(delays).toEqual([
      { action: 'retry', delayMs: 50, viaClock: true },
      { action: 'retry', delayMs: 100, viaClock: true },
      { action: 'retry', delayMs: 200, viaClock: true },
      { action: 'retry', delayMs: 15_000, viaClock: true },
      { action: 'retry', delayMs: 15_000, viaClock: true },
    ]);
  });

  it('runs only a first retry that drew no delay at once; later zero draws wait on the clock', () => {
    const routing = policy({ random: () => 0 });
    for (const phase of ['handle', 'permanent-failure', 'dead-letter'] as const) {
      expect(routeFailure({ phase, errorClass: 'transient', attempt: 1 }, routing)).toEqual({
        action: 'retry',
        delayMs: 0,
        viaClock: false,
      });
      expect(routeFailure({ phase, errorClass: 'transient', attempt: 2 }, routing)).toEqual({
        action: 'retry',
        delayMs: 0,
        viaClock: true,
      });
    }
  });

  it('rejects a retry policy the backoff cannot honour', () => {
    const routing = policy({ retry: { baseMs: 100, maxMs: 10 } });
    expect(() => routeFailure({ phase: 'handle', errorClass: 'transient', attempt: 1 }, routing)).toThrow(/maxMs/);
  });
});

describe('classifyFailure', () => {
  it('uses the classifier, and counts a throwing classifier as permanent', () => {
    expect(classifyFailure(() => 'transient', new Error('x'))).toBe('transient');
    expect(classifyFailure(() => 'permanent', new Error('x'))).toBe('permanent');
    expect(
      classifyFailure(() => {
        throw new Error('classifier bug');
      }, new Error('ECONNRESET')),
    ).toBe('permanent');
  });
});

describe('undeliverableInfo', () => {
  const record = {
    handleAttempts: 2,
    failure: { reason: 'TypeError: bad vector' },
    deadLetterInfo: { errorClass: 'missing-result-key', reason: 'result key missing', attempts: 0 },
  };

  it('names the failure of each path the record went through', () => {
    expect(undeliverableInfo('handle', new TypeError('bad vector'), record)).toEqual({
      errorClass: 'permanent',
      reason: 'handler failed permanently: TypeError: bad vector',
      attempts: 2,
    });
    expect(undeliverableInfo('permanent-failure', new Error('no result key'), record)).toEqual({
      errorClass: 'permanent',
      reason: 'failure result could not be delivered: Error: no result key (handler: TypeError: bad vector)',
      attempts: 2,
    });
    expect(undeliverableInfo('dead-letter', new Error('DLQ topic missing'), record)).toEqual({
      errorClass: 'missing-result-key',
      reason: 'dead-letter write failed permanently: Error: DLQ topic missing (result key missing)',
      attempts: 2,
    });
  });

  it('says what is unknown when an earlier path left nothing behind', () => {
    const bare = { handleAttempts: 0, failure: null, deadLetterInfo: null };
    expect(undeliverableInfo('permanent-failure', 'boom', bare).reason).toBe(
      'failure result could not be delivered: boom (handler: unknown)',
    );
    expect(undeliverableInfo('dead-letter', 'boom', bare)).toEqual({
      errorClass: 'permanent',
      reason: 'dead-letter write failed permanently: boom (no reason)',
      attempts: 0,
    });
  });
});
