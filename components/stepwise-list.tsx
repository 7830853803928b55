'use client';

import { useState } from 'react';

/**
 * The newest `step` items of a long list, and `step` more on each "Show older": every row drawn goes through the
 * page's first render and hydration, so a page draws what fits a few screens and the rest on request.
 * `restart` goes back to the first step (after the filter that chose the items changed).
 */
export function useStepwise<T>(items: readonly T[], step: number) {
  const [drawn, setDrawn] = useState(step);
  return {
    shown: items.slice(0, drawn),
    hidden: Math.max(0, items.length - drawn),
    more: () => setDrawn((n) => n + step),
    restart: () => setDrawn(step),
  };
}

/** The button under a stepwise list; nothing once every item is drawn. */
export function ShowOlder({
  hidden,
  step,
  onClick,
  testId,
}: {
  hidden: number;
  step: number;
  onClick: () => void;
  testId: string;
}) {
  if (hidden === 0) return null;
  return (
    <button type="button" className="button" onClick={onClick} data-testid={testId}>
      Show {Math.min(step, hidden)} older
    </button>
  );
}
