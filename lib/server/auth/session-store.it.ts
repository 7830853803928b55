import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db';
import { parseUsers, type UserCredential } from '../../auth/credentials';
import { testDatabase } from '../../../test-support/database';
import { PostgresAccessLog } from './access-log';
import { signIn } from './sign-in';
import { signOut, signOutEverywhere } from './sign-out';
import { SignInLimiter } from './sign-in-limiter';
import { SessionStore } from './session-store';
import { decideAccess } from './access';

// Sessions and the access log on real Postgres: a cookie copied before sign-out is refused after it, the
// cookie value is never stored, idle and changed-credential sessions end, last-seen is written at most once a
// minute, and access events never hold a password or a cookie. Users get unique names per run.

let db: Database;
beforeAll(() => {
  db = testDatabase();
});
afterAll(async () => {
  await db?.$disconnect();
});

const run = randomUUID().slice(0, 8);
const name = `olga-${run}`;
const PASSWORD = `olga-password-${run}`;
function users(value: string): UserCredential[] {
  const parsed = parseUsers(value);
  if (!parsed.ok) throw new Error(parsed.problems.join());
  return parsed.value;
}
const settings = {
  users: users(`${name}:operator:${PASSWORD}`),
  tokens: [],
  sessionSecret: 's'.repeat(32),
  sessionMaxAgeSec: 3_600,
  sessionIdleSec: 600,
  cookieSecure: 'auto' as const,
  allowedOrigins: [],
};
const olga = settings.users[0]!;
const client = { address: '10.1.2.3', userAgent: 'Mozilla/5.0 (stolen-cookie test)' };
const at = (base: Date, seconds: number) => new Date(base.getTime() + seconds * 1000);

describe('SessionStore on Postgres', () => {
  it('refuses a cookie copied before sign-out once the session signed out, everywhere', async () => {
    const store = new SessionStore(db, settings);
    const log = new PostgresAccessLog(db);
    const now = new Date();
    const { token } = await signIn(
      settings,
      new SignInLimiter(),
      store,
      log,
      { name, password: PASSWORD },
      client,
      now,
    );
    const stolen = `${token}`;
    const request = (cookie: string) => ({
      method: 'GET',
      origin: null,
      host: '127.0.0.1',
      authorization: null,
      sessionCookie: cookie,
    });
    expect(await decideAccess(settings, store, request(stolen), 'viewer', at(now, 1))).toMatchObject({
      ok: true,
      principal: { name, role: 'operator', via: 'session' },
    });

    const rows = await db.dashboardSession.findMany({ where: { userName: name } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ role: 'operator', clientAddress: client.address, userAgent: client.userAgent });
    expect(rows[0]!.expiresAt).toEqual(at(now, 3_600));
    // Only a hash of the cookie is kept.
    expect(JSON.stringify(rows)).not.toContain(token.slice(3));

    expect(await signOut(store, log, token, client, at(now, 2))).toEqual({ signedOut: true });
    expect(await store.find(stolen, at(now, 3))).toBeNull();
    expect(await decideAccess(settings, store, request(stolen), 'viewer', at(now, 3))).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(await db.dashboardSession.count({ where: { userName: name } })).toBe(0);

    const events = await db.accessEvent.findMany({ where: { userName: name }, orderBy: { id: 'asc' } });
    expect(events.map((e) => [e.kind, e.clientAddress, e.userAgent])).toEqual([
      ['sign-in', client.address, client.userAgent],
      ['sign-out', client.address, client.userAgent],
    ]);
    const stored = JSON.stringify(events, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    for (const secret of [PASSWORD, token, token.slice(3)]) expect(stored).not.toContain(secret);
  });

  it('ends idle sessions, moves last-seen at most once a minute, and ends sessions of changed users', async () => {
    const store = new SessionStore(db, settings);
    const now = new Date();
    const token = await store.create(olga, client, now);
    const lastSeen = async () =>
      (await db.dashboardSession.findMany({ where: { userName: name } })).map((r) => r.lastSeenAt.getTime());

    expect(await store.find(token, at(now, 30))).toMatchObject({ name });
    expect(await lastSeen()).toEqual([now.getTime()]);
    expect(await store.find(token, at(now, 61))).toMatchObject({ name });
    expect(await lastSeen()).toEqual([at(now, 61).getTime()]);
    // Idle for the whole idle window since the last write: ended, and the row is gone.
    expect(await store.find(token, at(now, 61 + 600))).toBeNull();
    expect(await lastSeen()).toEqual([]);

    const again = await store.create(olga, client, now);
    const changedPassword = new SessionStore(db, { ...settings, users: users(`${name}:operator:another-password`) });
    expect(await changedPassword.find(again, at(now, 1))).toBeNull();
    expect(await store.find(again, at(now, 2))).toBeNull();
  });

  it('signs out every session of one user and no one else', async () => {
    const store = new SessionStore(db, settings);
    const log = new PostgresAccessLog(db);
    const now = new Date();
    const tokens = await Promise.all([1, 2, 3].map(() => store.create(olga, client, now)));
    const otherName = `vic-${run}`;
    const vic = users(`${otherName}:viewer:vic-password-${run}`)[0]!;
    const both = new SessionStore(db, { ...settings, users: [olga, vic] });
    const vicToken = await both.create(vic, client, now);
    const result = await signOutEverywhere(store, log, { name, role: 'operator', via: 'session' }, client, now);
    expect(result).toEqual({ sessionsEnded: 3 });
    for (const token of tokens) expect(await store.find(token, at(now, 1))).toBeNull();
    expect(await both.find(vicToken, at(now, 1))).toMatchObject({ name: otherName });
    const last = await db.accessEvent.findFirst({ where: { userName: name }, orderBy: { id: 'desc' } });
    expect(last).toMatchObject({ kind: 'sign-out-all', detail: '3 sessions ended' });
  });
});
