import { describe, expect, it } from 'vitest';
import { clientAddress, SignInLimiter, SIGN_IN_LIMITS } from './sign-in-limiter';

describe('SignInLimiter', () => {
  it('allows 5 failures per user and address in 15 minutes, then refuses until the window ends', () => {
    const limiter = new SignInLimiter();
    const t0 = 1_000_000;
    for (let i = 0; i < SIGN_IN_LIMITS.perUserAddress; i++) {
      expect(limiter.check('alice', '10.0.0.1', t0 + i)).toEqual({ allowed: true });
      limiter.recordFailure('alice', '10.0.0.1', t0 + i);
    }
    expect(limiter.check('alice', '10.0.0.1', t0 + 10)).toEqual({ allowed: false, retryAfterMs: 15 * 60_000 - 10 });
    // The name is compared case-insensitively; another address or user is not affected yet.
    expect(limiter.check(' ALICE ', '10.0.0.1', t0 + 10).allowed).toBe(false);
    expect(limiter.check('alice', '10.0.0.2', t0 + 10).allowed).toBe(true);
    expect(limiter.check('bob', '10.0.0.1', t0 + 10).allowed).toBe(true);
    expect(limiter.check('alice', '10.0.0.1', t0 + 15 * 60_000).allowed).toBe(true);
  });

  it('caps failures per user across addresses (a forged address does not buy more guesses)', () => {
    const limiter = new SignInLimiter();
    for (let i = 0; i < SIGN_IN_LIMITS.perUser; i++) limiter.recordFailure('alice', `10.0.0.${i}`, 0);
    expect(limiter.check('alice', '10.9.9.9', 1).allowed).toBe(false);
    expect(limiter.check('bob', '10.9.9.9', 1).allowed).toBe(true);
  });

  it('clears the user+address counter on success', () => {
    const limiter = new SignInLimiter({ perUserAddress: 2, perUser: 100, windowMs: 1000 });
    limiter.recordFailure('alice', 'a', 0);
    limiter.recordSuccess('alice', 'a');
    limiter.recordFailure('alice', 'a', 1);
    expect(limiter.check('alice', 'a', 2).allowed).toBe(true);
    limiter.recordFailure('alice', 'a', 3);
    expect(limiter.check('alice', 'a', 4).allowed).toBe(false);
  });

  it('keeps memory bounded under a spray of names', () => {
    const limiter = new SignInLimiter();
    for (let i = 0; i < 12_000; i++) limiter.recordFailure(`user-${i}`, 'a', i);
    expect(limiter.size).toBeLessThanOrEqual(10_001);
  });
});

describe('clientAddress', () => {
  it('takes the last X-Forwarded-For hop', () => {
    expect(clientAddress(new Headers({ 'x-forwarded-for': '1.1.1.1, 10.0.0.7' }))).toBe('10.0.0.7');
    expect(clientAddress(new Headers())).toBe('unknown');
  });
});
