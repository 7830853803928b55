// Recording stand-ins for the ports the core's parts call, for the parts' own unit tests.

import { CoreEvents } from '../core-events.js';
import type { RoutingPolicy } from '../failure-routing.js';
import type { CoreEvent } from '../types.js';

export const ROUTING: RoutingPolicy = {
  quarantinePolicy: 'pause',
  hasFailureResult: false,
  hasDeadLetter: true,
  retry: { baseMs: 100, maxMs: 1000 },
  random: () => 0.5,
};

/** A CoreEvents whose observer keeps every event. */
export function recordedEvents(): { events: CoreEvents; emitted: CoreEvent[] } {
  const emitted: CoreEvent[] = [];
  return { events: new CoreEvents({ onEvent: (event) => emitted.push(event) }), emitted };
}

/** A commit scheduler port counting what it was asked. */
export function countedCommits(): { schedule(): void; expedite(): void; scheduled: number; expedited: number } {
  return {
    scheduled: 0,
    expedited: 0,
    schedule() {
      this.scheduled++;
    },
    expedite() {
      this.expedited++;
    },
  };
}
