import { describe, expect, it } from 'vitest';
import { heldFirstPaint, type TraceEvent } from './held-paint';

const MS = 1000;
const navigation = (ts: number, url: string): TraceEvent => ({
  name: 'navigationStart',
  ts,
  args: { data: { isLoadingMainFrame: true, documentLoaderURL: url } },
});
const decision = (ts: number, shouldSend: boolean): TraceEvent => ({
  name: 'SendBeginFrameDecision',
  ts,
  args: { reason: shouldSend ? 'SendDefault' : 'ThrottleUndrawnFrames', should_send: shouldSend },
});
const firstContentfulPaint = (ts: number): TraceEvent => ({ name: 'firstContentfulPaint', ts });
/** One decision per 60 Hz frame from `fromMs` up to (not including) `toMs`. */
const frames = (fromMs: number, toMs: number, shouldSend: boolean): TraceEvent[] =>
  Array.from({ length: Math.ceil((toMs - fromMs) / 16.67) }, (_, i) => decision((fromMs + i * 16.67) * MS, shouldSend));

describe('heldFirstPaint', () => {
  it('counts the frames withheld between the navigation and its first contentful paint', () => {
    const events = [
      navigation(0, 'http://127.0.0.1:19200/sign-in'),
      ...frames(0, 330, true),
      ...frames(330, 1330, false),
      firstContentfulPaint(1340 * MS),
      ...frames(1340, 1500, false),
    ];
    expect(heldFirstPaint(events)).toEqual({ withheldFrames: 60, heldMs: 1010 });
  });

  it('answers null for a load whose frames were all offered', () => {
    const events = [navigation(0, 'http://127.0.0.1:19200/'), ...frames(0, 700, true), firstContentfulPaint(706 * MS)];
    expect(heldFirstPaint(events)).toBeNull();
  });

  it("reads the page's navigation, not about:blank's before it", () => {
    const events = [
      navigation(0, 'about:blank'),
      ...frames(50, 400, false),
      navigation(500 * MS, 'http://127.0.0.1:19200/alerts'),
      ...frames(500, 700, true),
      firstContentfulPaint(710 * MS),
    ];
    expect(heldFirstPaint(events)).toBeNull();
  });

  it('answers null without a navigation or a contentful paint', () => {
    expect(heldFirstPaint(frames(0, 500, false))).toBeNull();
    expect(heldFirstPaint([navigation(0, 'http://127.0.0.1:19200/'), ...frames(0, 500, false)])).toBeNull();
  });
});
