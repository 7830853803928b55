// Time from an alert's condition to its delivery, measured at the receiver: pure, over the payloads received
// and the instant each arrived.

import type { AlertPayloadV1 } from '../../lib/alerts/alert-payload';
import { percentileOfSorted } from '../bench/stats';

export interface ReceivedAlert {
  payload: Pick<AlertPayloadV1, 'kind' | 'activeSince' | 'firingSince' | 'condition'>;
  receivedAtMs: number;
}

export interface DeliveryLatency {
  /** First notifications (kind firing) measured. */
  count: number;
  /** Firing (the evaluation that fired it) to received: what Warden adds. */
  firingToReceived: { p50: number | null; p95: number | null };
  /** Condition first seen (or, for a quarantine, the quarantine itself) to received: includes the `for`. */
  conditionToReceived: { p50: number | null; p95: number | null };
}

/** p50 and p95 over the first notification of each alert; reminders and resolutions are not counted. */
export function deliveryLatency(received: readonly ReceivedAlert[]): DeliveryLatency {
  const fired = received.filter((r) => r.payload.kind === 'firing' && r.payload.firingSince !== null);
  const summary = (values: number[]) => {
    const sorted = values.map((v) => Math.max(0, v)).sort((a, b) => a - b);
    return { p50: percentileOfSorted(sorted, 50), p95: percentileOfSorted(sorted, 95) };
  };
  return {
    count: fired.length,
    firingToReceived: summary(fired.map((r) => r.receivedAtMs - Date.parse(r.payload.firingSince!))),
    conditionToReceived: summary(fired.map((r) => r.receivedAtMs - Date.parse(r.payload.activeSince))),
  };
}
