'use client';

import { useStoreAfterHydration } from './use-hydrated';

// One clock per tick length for the whole page: every component showing an age reads the same value and
// re-renders in the same commit, and only those components re-render (a page reading `useNow` at its top would
// re-render its whole tree, charts and tables included, every second). The interval runs while something
// subscribes and stops with the last unsubscribe.
interface Clock {
  now: number;
  listeners: Set<() => void>;
  timer: ReturnType<typeof setInterval> | null;
}

const clocks = new Map<number, Clock>();

function clockOf(tickMs: number): Clock {
  let clock = clocks.get(tickMs);
  if (!clock) {
    clock = { now: Date.now(), listeners: new Set(), timer: null };
    clocks.set(tickMs, clock);
  }
  return clock;
}

function subscribeTo(tickMs: number, onTick: () => void): () => void {
  const clock = clockOf(tickMs);
  clock.listeners.add(onTick);
  if (clock.timer === null) {
    // A clock that stood still while nothing showed an age starts from now (React re-reads the value after
    // subscribing and renders again if it moved).
    clock.now = Date.now();
    clock.timer = setInterval(() => {
      clock.now = Date.now();
      for (const listener of clock.listeners) listener();
    }, tickMs);
  }
  return () => {
    clock.listeners.delete(onTick);
    if (clock.listeners.size === 0 && clock.timer !== null) {
      clearInterval(clock.timer);
      clock.timer = null;
    }
  };
}

// One subscribe function per tick length: useSyncExternalStore resubscribes whenever the function it is given
// changes, and a resubscription that emptied the clock restarts it at a new `now`, which renders again: a new
// function per render would loop until React stops it (maximum update depth).
const subscribers = new Map<number, (onTick: () => void) => () => void>();

function subscriberOf(tickMs: number): (onTick: () => void) => () => void {
  let subscribe = subscribers.get(tickMs);
  if (!subscribe) {
    subscribe = (onTick) => subscribeTo(tickMs, onTick);
    subscribers.set(tickMs, subscribe);
  }
  return subscribe;
}

/**
 * The viewer's clock, re-rendering the calling component every `tickMs` (ages like "12 s ago" stay true
 * between polls). Call it in the small component that shows the age (`<Age>`), not in a page.
 *
 * `null` while the server renders and while the browser hydrates: the server's clock is not the viewer's, and
 * an age computed on the server differs from the one the hydrating render computes a moment later, which
 * makes React discard the server's HTML (error #418) and lose any click made meanwhile. A caller shows no age
 * for `null`. The clock is first read in the render after hydration (useStoreAfterHydration).
 */
export function useNow(tickMs = 1_000): number | null {
  return useStoreAfterHydration(subscriberOf(tickMs), () => clockOf(tickMs).now);
}
