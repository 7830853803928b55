import { describe, expect, it } from 'vitest';
import type { AuthSettings } from './access';
import { parseUsers } from '../../auth/credentials';
import { verifySessionToken } from './session-token';
import { signIn } from './sign-in';
import { SignInLimiter } from './sign-in-limiter';
import { refusal } from '../../../test-support/refusal';

const parsed = parseUsers('olga:operator:olga-password-1');
if (!parsed.ok) throw new Error('fixture');
const settings: AuthSettings = {
  users: parsed.value,
  tokens: [],
  sessionSecret: 's'.repeat(32),
  sessionMaxAgeSec: 600,
  cookieSecure: 'auto',
  allowedOrigins: [],
};
const now = new Date('2026-11-29T12:00:00Z');

describe('signIn', () => {
  it('issues a session for the right password, with a safe next path', async () => {
    const { session, token } = await signIn(
      settings,
      new SignInLimiter(),
      { name: 'olga', password: 'olga-password-1', next: '//evil.example' },
      '10.0.0.1',
      now,
    );
    expect(session).toEqual({ name: 'olga', role: 'operator', via: 'session', next: '/' });
    expect(verifySessionToken(settings.sessionSecret, settings.users, token, now)?.name).toBe('olga');
  });

  it('says only "wrong user name or password", then 429 after 5 failures, even with the right password', async () => {
    const limiter = new SignInLimiter();
    for (const name of ['olga', 'nobody']) {
      const error = await refusal(signIn(settings, limiter, { name, password: 'wrong-password' }, '10.0.0.1', now));
      expect([error.status, error.message]).toEqual([401, 'wrong user name or password']);
    }
    for (let i = 0; i < 4; i++)
      await refusal(signIn(settings, limiter, { name: 'olga', password: 'wrong-password' }, '10.0.0.1', now));
    const locked = await refusal(
      signIn(settings, limiter, { name: 'olga', password: 'olga-password-1' }, '10.0.0.1', now),
    );
    expect(locked.status).toBe(429);
    expect(locked.message).toBe('too many failed sign-ins for olga: try again in 15 min');
    expect(locked.headers['retry-after']).toBe('900');
    // Another address is still let in.
    expect(
      (await signIn(settings, limiter, { name: 'olga', password: 'olga-password-1' }, '10.0.0.2', now)).session.name,
    ).toBe('olga');
  });
});
