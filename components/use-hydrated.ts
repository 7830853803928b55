'use client';

import { useSyncExternalStore } from 'react';

const subscribeToNothing = () => () => {};

/**
 * False while the server renders and while the browser hydrates, true from the render after. What a component
 * shows before that must be exactly what the server sent: any text computed from the viewer's clock or from
 * client-only state differs, and React then discards the server's HTML for the whole page (error #418),
 * re-rendering everything on the client and detaching every element a click or a test was holding.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}
