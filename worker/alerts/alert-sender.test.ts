import { describe, expect, it } from 'vitest';
import { workerConfig } from '../config';
import { backoffDelayMs } from '@warden/consumer';
import { minimumRetrySpanMs } from './alert-sender';

describe('delivery retries', () => {
  const defaults = workerConfig.parse({});
  const backoff = { baseMs: defaults.ALERT_DELIVERY_BACKOFF_BASE_MS, maxMs: defaults.ALERT_DELIVERY_BACKOFF_MAX_MS };

  it('outlast a receiver that is down for 10 minutes with the default settings, whatever the jitter draws', () => {
    expect(minimumRetrySpanMs(defaults.ALERT_DELIVERY_MAX_ATTEMPTS, backoff)).toBeGreaterThan(10 * 60_000);
    // The span is a true minimum: the lowest draw of every delay adds up to it.
    let lowest = 0;
    for (let attempt = 1; attempt < defaults.ALERT_DELIVERY_MAX_ATTEMPTS; attempt++) {
      lowest += backoffDelayMs(attempt, backoff, () => 0, 'equal');
    }
    expect(lowest).toBe(minimumRetrySpanMs(defaults.ALERT_DELIVERY_MAX_ATTEMPTS, backoff));
  });

  it('span nothing with a single attempt', () => {
    expect(minimumRetrySpanMs(1, backoff)).toBe(0);
  });
});
