import { describe, expect, it } from 'vitest';
import { panWindow, zoomInWindow, zoomOutWindow } from './zoom-steps';

const full = [0, 1_000] as const;

describe('zoom steps', () => {
  it('zooms in to the middle half, keeping the centre, down to four steps of the series', () => {
    expect(zoomInWindow(full, full, 10)).toEqual([250, 750]);
    expect(zoomInWindow([250, 750], full, 10)).toEqual([375, 625]);
    expect(zoomInWindow([480, 520], full, 10)).toEqual([480, 520]);
    expect(zoomInWindow([0, 60], full, 10)).toEqual([10, 50]);
  });

  it('zooms out to twice the window, slid inside the range, and ends the zoom at the full range', () => {
    expect(zoomOutWindow([375, 625], full)).toEqual([250, 750]);
    expect(zoomOutWindow([0, 200], full)).toEqual([0, 400]);
    expect(zoomOutWindow([900, 1_000], full)).toEqual([800, 1_000]);
    expect(zoomOutWindow([250, 750], full)).toBeNull();
  });

  it('pans by half the window and stops at either end without shrinking', () => {
    expect(panWindow([250, 750], full, -1)).toEqual([0, 500]);
    expect(panWindow([0, 500], full, -1)).toEqual([0, 500]);
    expect(panWindow([250, 750], full, 1)).toEqual([500, 1_000]);
    expect(panWindow([600, 900], full, 1)).toEqual([700, 1_000]);
  });
});
