import { formatWallDateTime, type DisplayZone } from '@/lib/charts/axis';
import { panWindow, zoomInWindow, zoomOutWindow } from '@/lib/charts/zoom-steps';

/**
 * Zoom from the keyboard (in, out, earlier, later: lib/charts/zoom-steps.ts) and, once zoomed, the way back to the
 * whole range naming the window shown. A drag across a chart zooms too (lag-chart-frame.tsx).
 */
export function ZoomControls({
  zoom,
  domain,
  whole,
  stepMs,
  zone,
  onZoom,
}: {
  /** The window shown; null: the whole range. */
  zoom: [number, number] | null;
  /** The window the charts draw (the zoom, or the whole range). */
  domain: [number, number];
  /** The range's first and last instant. */
  whole: [number, number];
  /** The series' bucket: zooming in stops at a few buckets. */
  stepMs: number;
  zone: DisplayZone;
  onZoom: (zoom: [number, number] | null) => void;
}) {
  return (
    <>
      <span className="zoom-steps" role="group" aria-label="Zoom the charts">
        <button
          type="button"
          className="button button-small"
          data-testid="zoom-in"
          onClick={() => onZoom([...zoomInWindow(domain, whole, stepMs)])}
        >
          Zoom in
        </button>
        {zoom ? (
          <>
            <button
              type="button"
              className="button button-small"
              data-testid="zoom-out"
              onClick={() => {
                const out = zoomOutWindow(zoom, whole);
                onZoom(out ? [...out] : null);
              }}
            >
              Zoom out
            </button>
            <button
              type="button"
              className="button button-small"
              data-testid="zoom-earlier"
              aria-label="Show earlier"
              onClick={() => onZoom([...panWindow(zoom, whole, -1)])}
            >
              ← Earlier
            </button>
            <button
              type="button"
              className="button button-small"
              data-testid="zoom-later"
              aria-label="Show later"
              onClick={() => onZoom([...panWindow(zoom, whole, 1)])}
            >
              Later →
            </button>
          </>
        ) : null}
      </span>
      {zoom ? (
        <button type="button" className="button button-small" onClick={() => onZoom(null)} data-testid="zoom-reset">
          Reset zoom ({formatWallDateTime(zoom[0], zone)} – {formatWallDateTime(zoom[1], zone).slice(11)})
        </button>
      ) : null}
    </>
  );
}
