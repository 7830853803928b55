'use client';

import { useEffect, useState, type RefObject } from 'react';

/**
 * How far below (or above) the viewport a card's deferred content starts loading: about half a phone screen,
 * so its request has a head start on someone scrolling towards it.
 */
export const NEAR_VIEWPORT_MARGIN_PX = 400;

/**
 * True once the element has come within `marginPx` of the viewport, and from then on (content mounted this
 * way is never torn down by scrolling away). False on the server and until the first observation.
 */
export function useNearViewport(ref: RefObject<Element | null>, marginPx: number): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (near || element === null) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: `${marginPx}px 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, marginPx, near]);
  return near;
}
