'use client';

import { useState } from 'react';

/**
 * The newest `step` items of a long list, and `step` more on each "Show older": every row drawn goes through the
 * page's first render and hydration, so a page draws what fits a few screens and the rest on request. A new
 * `choice` (what the filters that chose the items say) starts again from the first step.
 */
export function useStepwise<T>(items: readonly T[], step: number, choice: string) {
  const [drawn, setDrawn] = useState({ choice, count: step });
  const count = drawn.choice === choice ? drawn.count : step;
  return {
    shown: items.slice(0, count),
    hidden: Math.max(0, items.length - count),
    more: () => setDrawn({ choice, count: count + step }),
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
