// Whether the measuring browser held a page's first paint back, read from the trace of a Lighthouse load.
//
// In headless Chromium the display compositor (viz) stops offering frames to a page that has a frame it has not
// drawn yet (`SendBeginFrameDecision`, reason `ThrottleUndrawnFrames`) and then offers one a second. When that
// happens during a load, the page's first frame, already laid out, painted and committed, waits about a second
// for the next frame it is offered; the main thread is idle meanwhile. Lighthouse's simulation then counts every
// request and task of that second inside the first and largest contentful paints (docs/decisions.md, "A first
// paint held by the measuring browser"). The decisions are traced in the `viz` category only, which the
// audit asks for (TRACE_CATEGORIES).

/** The trace category that records viz's decisions; without it `heldFirstPaint` always answers null. */
export const TRACE_CATEGORIES = 'viz';

/** The fields of a Chromium trace event this module reads. */
export interface TraceEvent {
  name: string;
  ts: number;
  args?: Record<string, unknown>;
}

export interface HeldFirstPaint {
  /** How many frames viz withheld between the navigation's start and the first contentful paint. */
  withheldFrames: number;
  /** Milliseconds from the first withheld frame to the first contentful paint. */
  heldMs: number;
}

/**
 * The frames withheld before the first contentful paint of the page's navigation, or null when none were (or
 * the trace has no navigation or no contentful paint). The navigation is the last main-frame `navigationStart`
 * of an http(s) document: Lighthouse loads about:blank first.
 */
export function heldFirstPaint(events: readonly TraceEvent[]): HeldFirstPaint | null {
  const navigations = events.filter((event) => {
    const data = event.args?.data as { isLoadingMainFrame?: boolean; documentLoaderURL?: string } | undefined;
    return (
      event.name === 'navigationStart' &&
      data?.isLoadingMainFrame === true &&
      /^https?:/.test(data.documentLoaderURL ?? '')
    );
  });
  const start = Math.max(...navigations.map((event) => event.ts));
  if (!Number.isFinite(start)) return null;
  const paints = events.filter((event) => event.name === 'firstContentfulPaint' && event.ts >= start);
  const firstPaint = Math.min(...paints.map((event) => event.ts));
  if (!Number.isFinite(firstPaint)) return null;
  const withheld = events.filter(
    (event) =>
      event.name === 'SendBeginFrameDecision' &&
      event.args?.should_send === false &&
      event.ts >= start &&
      event.ts < firstPaint,
  );
  if (withheld.length === 0) return null;
  const firstWithheld = Math.min(...withheld.map((event) => event.ts));
  return { withheldFrames: withheld.length, heldMs: Math.round((firstPaint - firstWithheld) / 1000) };
}
