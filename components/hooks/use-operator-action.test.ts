import { describe, expect, it } from 'vitest';
import type { TOperatorAction } from '@/lib/schemas/operator-actions';
import type { TQuarantine } from '@/lib/schemas/quarantines';
import { awaitsWorker, withPendingAction } from './use-operator-action';

const action = (over: Partial<TOperatorAction> = {}): TOperatorAction => ({
  id: '7',
  commandId: '0b5e6a52-3c1f-4a8e-9d47-2f6c1e8b9a10',
  cluster: 'default',
  groupId: 'g',
  topic: 't',
  partition: 1,
  action: 'skip',
  seekOffset: null,
  seekTimestamp: null,
  quarantineOffset: '2',
  reason: 'r',
  requestedBy: 'alice',
  requestedAt: '2026-12-01T06:24:00.000Z',
  status: 'pending',
  outcome: null,
  executedBy: null,
  completedAt: null,
  relayedAt: null,
  expiresAt: null,
  ...over,
});

const quarantine = (over: Partial<TQuarantine> = {}): TQuarantine => ({
  cluster: 'default',
  groupId: 'g',
  topic: 't',
  partition: 1,
  offset: '2',
  reason: 'bad',
  errorClass: 'invalid',
  since: '2026-12-01T06:21:01.000Z',
  heldSince: '2026-12-01T06:21:01.000Z',
  failures: 1,
  attempts: 0,
  retrying: null,
  blocking: { records: 3, timeLag: { ms: null, kind: 'unknown', basis: 'none' } },
  history: [],
  record: { key: null, preview: null, previewTruncated: false, headers: {}, timestamp: null, payloadHidden: false },
  logStartOffset: '0',
  logEndOffset: '5',
  committedOffset: '2',
  lag: 3,
  owner: null,
  heldBy: 'orders-service@host-a/4242',
  liveOwner: null,
  pendingAction: null,
  ...over,
});

describe('awaitsWorker', () => {
  it('is false when nothing waits for a worker', () => {
    expect(awaitsWorker({ quarantines: [quarantine()] }, [action({ status: 'done' })])).toBe(false);
    expect(awaitsWorker(undefined, undefined)).toBe(false);
  });

  it('is true while an action is pending, on a card or in the recent list', () => {
    expect(awaitsWorker({ quarantines: [quarantine({ pendingAction: action() })] }, [])).toBe(true);
    expect(awaitsWorker({ quarantines: [] }, [action()])).toBe(true);
  });

  it('is true while a resumed record is being retried (it may fail again)', () => {
    const retrying = quarantine({ retrying: { since: '2026-12-01T06:24:01.000Z', actionId: '7' } });
    expect(awaitsWorker({ quarantines: [retrying] }, [action({ status: 'done' })])).toBe(true);
  });
});

describe('withPendingAction', () => {
  it('marks only the acted-on partition as pending, so its buttons disable before the next poll', () => {
    const other = quarantine({ partition: 2 });
    // The same group id on another cluster is another group.
    const elsewhere = quarantine({ cluster: 'eu' });
    const next = withPendingAction({ quarantines: [quarantine(), other, elsewhere] }, action());
    expect(next?.quarantines[0]?.pendingAction?.id).toBe('7');
    expect(next?.quarantines[1]?.pendingAction).toBeNull();
    expect(next?.quarantines[2]?.pendingAction).toBeNull();
  });

  it('leaves an empty cache empty', () => {
    expect(withPendingAction(undefined, action())).toBeUndefined();
  });
});
