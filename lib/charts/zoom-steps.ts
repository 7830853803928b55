// Zooming the charts from the keyboard (and with a button for anyone): the same time window a drag selects,
// reached in steps. A window is [fromMs, toMs] inside the full range of the series; every step keeps it inside
// and never narrower than `MIN_SPAN_STEPS` of the series' step, so a window always holds points to draw.

export type TimeWindow = readonly [number, number];

/** The narrowest window a zoom step makes, in steps of the series (a drag may go narrower). */
export const MIN_SPAN_STEPS = 4;

/** The middle half of `current` (its centre kept), no narrower than the minimum span. */
export function zoomInWindow(current: TimeWindow, full: TimeWindow, stepMs: number): TimeWindow {
  const span = current[1] - current[0];
  const next = Math.max(span / 2, Math.min(MIN_SPAN_STEPS * stepMs, full[1] - full[0]));
  const centre = (current[0] + current[1]) / 2;
  return clampWindow([centre - next / 2, centre + next / 2], full);
}

/** Twice `current` around its centre; null once that covers the full range (the zoom is gone). */
export function zoomOutWindow(current: TimeWindow, full: TimeWindow): TimeWindow | null {
  const span = (current[1] - current[0]) * 2;
  if (span >= full[1] - full[0]) return null;
  const centre = (current[0] + current[1]) / 2;
  return clampWindow([centre - span / 2, centre + span / 2], full);
}

/** `current` moved by half its span, earlier (-1) or later (+1), stopping at the ends of the range. */
export function panWindow(current: TimeWindow, full: TimeWindow, direction: -1 | 1): TimeWindow {
  const shift = ((current[1] - current[0]) / 2) * direction;
  return clampWindow([current[0] + shift, current[1] + shift], full);
}

/** `window` slid (not shrunk) to lie inside `full`; a window wider than `full` becomes `full`. */
function clampWindow(window: TimeWindow, full: TimeWindow): TimeWindow {
  const span = window[1] - window[0];
  if (span >= full[1] - full[0]) return full;
  if (window[0] < full[0]) return [full[0], full[0] + span];
  if (window[1] > full[1]) return [full[1] - span, full[1]];
  return window;
}
