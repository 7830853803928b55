import { describe, expect, it } from 'vitest';
import { heldFirstPaint, type TraceEvent } from './held-paint';

const MS = 1000;
const decision = (ts: number, shouldSend: boolean): TraceEvent => ({
  name: 'SendBeginFrameDecision',
  ts,
  args: { reason: shouldSend ? 'SendDefault' : 'ThrottleUndrawnFrames', should_send: shouldSend },
});
/** One decision per 60 Hz frame from `fromMs` up to (not including) `toMs`. */
const frames = (fromMs: number, toMs: number, shouldSend: boolean): TraceEvent[] =>
  Array.from({ length: Math.ceil((toMs - fromMs) / 16.67) }, (_, i) => decision((fromMs + i * 16.67) * MS, shouldSend));

describe('heldFirstPaint', () => {
  it("counts the frames withheld between the load's start and its first contentful paint", () => {
    const events = [...frames(0, 330, true), ...frames(330, 1330, false), ...frames(1340, 1500, false)];
    expect(heldFirstPaint(events, { timeOriginTs: 0, firstContentfulPaintTs: 1340 * MS })).toEqual({
      withheldFrames: 60,
      heldMs: 1010,
    });
  });

  it('answers null for a load whose frames were all offered', () => {
    expect(heldFirstPaint(frames(0, 700, true), { timeOriginTs: 0, firstContentfulPaintTs: 706 * MS })).toBeNull();
  });

  it("does not count frames withheld before the page's navigation (Lighthouse's about:blank)", () => {
    const events = [...frames(50, 400, false), ...frames(500, 700, true)];
    expect(heldFirstPaint(events, { timeOriginTs: 500 * MS, firstContentfulPaintTs: 710 * MS })).toBeNull();
  });

  it('answers null for a load that never painted content', () => {
    expect(heldFirstPaint(frames(0, 500, false), { timeOriginTs: 0, firstContentfulPaintTs: undefined })).toBeNull();
  });
});
