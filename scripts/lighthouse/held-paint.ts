// Whether the measuring browser held a page's first paint back, read from the trace of a Lighthouse load.
//
// In headless Chromium the display compositor (viz) stops offering frames to a page that has a frame it has not
// drawn yet (`SendBeginFrameDecision`, reason `ThrottleUndrawnFrames`) and then offers one a second. When that
// happens during a load, the page's first frame, already laid out, painted and committed, waits about a second
// for the next frame it is offered; the main thread is idle meanwhile. Lighthouse's simulation then counts every
// request and task of that second inside the first and largest contentful paints
// (docs/decisions/0037-measuring-page-speed.md). The decisions are traced in the `viz` category only, which the
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

/** Where a load starts and first paints, in the trace's microseconds: Lighthouse's own `metrics` audit gives both. */
export interface LoadTimes {
  /** `observedTimeOriginTs`: the start of the page's navigation (not of the about:blank Lighthouse loads first). */
  timeOriginTs: number;
  /** `observedFirstContentfulPaintTs`, undefined when the page never painted content. */
  firstContentfulPaintTs: number | undefined;
}

/** The frames withheld between the load's start and its first contentful paint, or null when none were. */
export function heldFirstPaint(events: readonly TraceEvent[], load: LoadTimes): HeldFirstPaint | null {
  const { timeOriginTs, firstContentfulPaintTs } = load;
  if (firstContentfulPaintTs === undefined) return null;
  const withheld = events.filter(
    (event) =>
      event.name === 'SendBeginFrameDecision' &&
      event.args?.should_send === false &&
      event.ts >= timeOriginTs &&
      event.ts < firstContentfulPaintTs,
  );
  if (withheld.length === 0) return null;
  const firstWithheld = Math.min(...withheld.map((event) => event.ts));
  return { withheldFrames: withheld.length, heldMs: Math.round((firstContentfulPaintTs - firstWithheld) / 1000) };
}
