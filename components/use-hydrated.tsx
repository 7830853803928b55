'use client';

import { createContext, startTransition, use, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';

const HydratedContext = createContext(false);

/**
 * Holds whether the page has hydrated, for every component below it (the root layout's providers): false while
 * the server renders and while the browser hydrates, true from a render after. It turns true inside a
 * transition, so the render that brings every client-only text (ages from the viewer's clock, times in the
 * viewer's zone, the header's liveness) is time-sliced: React renders it in short tasks between which the
 * browser paints and handles input, instead of one task as long as the whole page's re-render.
 *
 * Why not `useSyncExternalStore` with a server snapshot of false: React reconciles a store whose client
 * snapshot differs from the server's with a forced synchronous re-render of every component that reads it,
 * right after hydration. Measured on a 4x-slowed Chromium, that was a 90-140 ms task on every page (the
 * Rebalances page re-rendered its whole timeline), the first input after start-up waiting behind it.
 *
 * A Suspense boundary whose server HTML hydrates after the flag turned true (a `next/dynamic` component whose
 * chunk came late) still hydrates against false: React hydrates a dehydrated boundary before applying a context
 * change above it.
 */
export function HydrationProvider({ children }: { children: ReactNode }) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => startTransition(() => setHydrated(true)), []);
  return <HydratedContext value={hydrated}>{children}</HydratedContext>;
}

/**
 * False while the server renders and while the browser hydrates, true from a render after (HydrationProvider),
 * and true at once in a component first mounted after that (a page reached by a client-side navigation, a
 * dialog). What a component shows while it is false must be exactly what the server sent: any text computed
 * from the viewer's clock or from client-only state differs, and React then discards the server's HTML for the
 * whole page (error #418), re-rendering everything on the client and detaching every element a click or a test
 * was holding.
 */
export function useHydrated(): boolean {
  return use(HydratedContext);
}

const subscribeToNothing = () => () => {};
const readNothing = () => null;

/**
 * A client-only external store (the clock, localStorage), read from the render that `useHydrated` turns true on
 * and null until then, as in the server's render. Reading it during hydration instead would make its client
 * snapshot differ from the server's, the forced synchronous re-render HydrationProvider exists to avoid.
 * `subscribe` must keep its identity from render to render, or React subscribes again on each.
 */
export function useStoreAfterHydration<T>(subscribe: (onChange: () => void) => () => void, read: () => T): T | null {
  const hydrated = useHydrated();
  return useSyncExternalStore<T | null>(
    hydrated ? subscribe : subscribeToNothing,
    hydrated ? read : readNothing,
    readNothing,
  );
}
