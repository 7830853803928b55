// Failed sign-ins, counted in memory per dashboard process, in fixed windows that start at the first failure:
// - per user name and client address: SIGN_IN_LIMITS.perUserAddress failures per window;
// - per user name from any address: SIGN_IN_LIMITS.perUser (the client address comes from X-Forwarded-For,
//   which a client talking to the server directly can forge, so this cap bounds guessing even then, at the
//   price that someone guessing can lock a user out for one window).
// Once a limit is reached, further attempts are refused without checking the password until the window ends;
// a successful sign-in clears its user+address counter. Counters are lost on restart. Pure: time is passed in.

export const SIGN_IN_LIMITS = { perUserAddress: 5, perUser: 20, windowMs: 15 * 60_000 } as const;
/** Counters kept at most; past it the oldest windows are forgotten (bounds memory under a spray of names). */
const MAX_ENTRIES = 10_000;

interface Window {
  failures: number;
  endsAt: number;
}

export type LimitDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

export class SignInLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly limits: { perUserAddress: number; perUser: number; windowMs: number } = SIGN_IN_LIMITS,
  ) {}

  check(user: string, address: string, now: number): LimitDecision {
    let retryAfterMs = 0;
    for (const [key, limit] of this.keys(user, address)) {
      const window = this.live(key, now);
      if (window && window.failures >= limit) retryAfterMs = Math.max(retryAfterMs, window.endsAt - now);
    }
    return retryAfterMs > 0 ? { allowed: false, retryAfterMs } : { allowed: true };
  }

  recordFailure(user: string, address: string, now: number): void {
    for (const [key] of this.keys(user, address)) {
      const window = this.live(key, now);
      if (window) window.failures += 1;
      else this.windows.set(key, { failures: 1, endsAt: now + this.limits.windowMs });
    }
    this.prune();
  }

  recordSuccess(user: string, address: string): void {
    this.windows.delete(this.keys(user, address)[0]![0]);
  }

  /** Counters held (for tests). */
  get size(): number {
    return this.windows.size;
  }

  private keys(user: string, address: string): Array<[string, number]> {
    const name = user.trim().toLowerCase();
    return [
      [`ua\u0000${name}\u0000${address}`, this.limits.perUserAddress],
      [`u\u0000${name}`, this.limits.perUser],
    ];
  }

  private live(key: string, now: number): Window | undefined {
    const window = this.windows.get(key);
    if (window && window.endsAt <= now) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  /** Over the cap, forgets the oldest windows first (Map iterates in insertion order; all windows are equally long). */
  private prune(): void {
    for (const key of this.windows.keys()) {
      if (this.windows.size <= MAX_ENTRIES) break;
      this.windows.delete(key);
    }
  }
}

/**
 * The client address for rate limiting: the last X-Forwarded-For entry (the one the nearest proxy, or Next.js
 * itself from the socket, put there), or "unknown".
 */
export function clientAddress(headers: Headers): string {
  const forwarded = headers.get('x-forwarded-for');
  const last = forwarded?.split(',').at(-1)?.trim();
  return last && last.length <= 100 ? last : 'unknown';
}
