import { describe, expect, it } from 'vitest';
import { deliveryLatency, type ReceivedAlert } from './alert-latency';

const at = (iso: string) => Date.parse(iso);
const fired = (activeSince: string, firingSince: string, receivedAt: string, kind = 'firing'): ReceivedAlert => ({
  payload: { kind: kind as ReceivedAlert['payload']['kind'], activeSince, firingSince, condition: 'group-status' },
  receivedAtMs: at(receivedAt),
});

describe('deliveryLatency', () => {
  it('measures first notifications only, from firing and from the condition, as p50 and p95', () => {
    const latency = deliveryLatency([
      fired('2026-12-01T12:00:00.000Z', '2026-12-01T12:00:15.000Z', '2026-12-01T12:00:15.200Z'),
      fired('2026-12-01T12:01:00.000Z', '2026-12-01T12:01:00.000Z', '2026-12-01T12:01:01.000Z'),
      fired('2026-12-01T12:02:00.000Z', '2026-12-01T12:02:00.000Z', '2026-12-01T12:02:00.400Z'),
      fired('2026-12-01T12:00:00.000Z', '2026-12-01T12:00:15.000Z', '2026-12-01T13:00:15.000Z', 'reminder'),
    ]);
    expect(latency).toEqual({
      count: 3,
      firingToReceived: { p50: 400, p95: 1_000 },
      conditionToReceived: { p50: 1_000, p95: 15_200 },
    });
  });

  it('has no percentiles without a first notification', () => {
    expect(deliveryLatency([])).toEqual({
      count: 0,
      firingToReceived: { p50: null, p95: null },
      conditionToReceived: { p50: null, p95: null },
    });
  });
});
