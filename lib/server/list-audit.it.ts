import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db';
import { testDatabase } from '../../test-support/database';
import { ZAuditQuery } from '../schemas/operator-actions';
import { PostgresAccessLog } from './auth/access-log';
import { listAudit } from './list-audit';

// The audit listing's kind filter on real Postgres: access events by kind, actions alone, both, and the
// group filter (access events belong to no group). Names are unique per run; other rows are ignored.

let db: Database;
beforeAll(() => {
  db = testDatabase();
});
afterAll(async () => {
  await db?.$disconnect();
});

describe('listAudit with access events', () => {
  it('filters by kind, newest first, and keeps access events out of a group filter', async () => {
    const user = `audit-${randomUUID().slice(0, 8)}`;
    const log = new PostgresAccessLog(db);
    const client = { address: '192.0.2.7', userAgent: 'audit-test' };
    const now = Date.now();
    for (const [i, kind] of (['sign-in-failed', 'sign-in', 'sign-out', 'sign-in-rate-limited'] as const).entries())
      await log.record({ kind, userName: user, client }, new Date(now + i * 1000));
    const mine = (events: { userName: string; kind: string }[]) =>
      events.filter((e) => e.userName === user).map((e) => e.kind);

    const everything = await listAudit(db, ZAuditQuery.parse({ limit: '1000' }));
    expect(mine(everything.access)).toEqual(['sign-in-rate-limited', 'sign-out', 'sign-in', 'sign-in-failed']);
    expect(mine((await listAudit(db, ZAuditQuery.parse({ kind: 'sign-in-failed' }))).access)).toEqual([
      'sign-in-failed',
    ]);
    const actionsOnly = await listAudit(db, ZAuditQuery.parse({ kind: 'actions' }));
    expect(actionsOnly.access).toEqual([]);
    const accessOnly = await listAudit(db, ZAuditQuery.parse({ kind: 'access' }));
    expect(accessOnly.actions).toEqual([]);
    expect(mine(accessOnly.access)).toHaveLength(4);
    expect((await listAudit(db, { groupId: 'any-group', kind: 'access' })).access).toEqual([]);
    expect(() => ZAuditQuery.parse({ kind: 'password' })).toThrow(/must be one of actions, access, sign-in/);
  });
});
