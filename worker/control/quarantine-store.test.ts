import { describe, expect, it } from 'vitest';
import { PREVIEW_MAX_CHARS, previewOf } from '../../lib/kafka/record-preview';
import { decideHold } from './quarantine-store';

// previewOf is the rule every stored preview follows; the ingester applies it again to the previews consumers
// send (state-rows.ts), so a preview from any instance looks like one from the dead-letter reader.
describe('previewOf', () => {
  it('keeps printable UTF-8 and escapes control characters', () => {
    expect(previewOf(Buffer.from('{"a":"é"}'))).toBe('{"a":"é"}');
    expect(previewOf(Buffer.from('a\u0000b\u001bc'))).toBe('a\\u0000b\\u001bc');
  });

  it('shows invalid UTF-8 as hex', () => {
    expect(previewOf(Buffer.from([0xff, 0x00, 0x41]))).toBe('hex:ff0041');
  });

  it('caps the preview size', () => {
    const preview = previewOf(Buffer.alloc(PREVIEW_MAX_CHARS * 3, 0x61));
    expect(preview).toHaveLength(PREVIEW_MAX_CHARS + 1);
    expect(preview.endsWith('…')).toBe(true);
    expect(previewOf(Buffer.alloc(5000, 0xff)).length).toBeLessThanOrEqual(PREVIEW_MAX_CHARS + 5);
  });
});

describe('decideHold', () => {
  const at = (iso: string) => new Date(`2026-12-01T${iso}Z`);
  const stored = {
    offset: 7n,
    since: at('06:21:01'),
    heldSince: at('06:21:01'),
    failures: 1,
    attempts: 3,
    resumeActionId: null,
  };

  it('starts a first hold with one failure', () => {
    expect(decideHold(null, { offset: 7n, heldSinceMs: at('06:21:01').getTime(), attempts: 3 }, null)).toEqual({
      kind: 'write',
      since: at('06:21:01'),
      failures: 1,
      attempts: 3,
      keepResume: false,
      failedResumeId: null,
    });
  });

  it('keeps since and counts a failure when the same record is held again (rebalance or resume)', () => {
    const decision = decideHold(stored, { offset: 7n, heldSinceMs: at('06:23:00').getTime(), attempts: 2 }, null);
    expect(decision).toMatchObject({ kind: 'write', since: at('06:21:01'), failures: 2, attempts: 5 });
  });

  it('turns the resume in progress into failed-again when the record is held again', () => {
    const resumed = { ...stored, resumeActionId: 41n };
    const decision = decideHold(resumed, { offset: 7n, heldSinceMs: at('06:24:01').getTime(), attempts: 0 }, null);
    expect(decision).toMatchObject({ kind: 'write', failures: 2, keepResume: false, failedResumeId: 41n });
  });

  it('changes nothing but the details when the same hold is saved again', () => {
    const resumed = { ...stored, resumeActionId: 41n };
    const decision = decideHold(resumed, { offset: 7n, heldSinceMs: at('06:21:01').getTime(), attempts: 3 }, null);
    expect(decision).toMatchObject({ kind: 'write', failures: 1, attempts: 3, keepResume: true, failedResumeId: null });
  });

  it('ignores an older hold than the stored one (a save that lost a race)', () => {
    expect(decideHold(stored, { offset: 7n, heldSinceMs: at('06:20:00').getTime(), attempts: 1 }, null)).toEqual({
      kind: 'ignore',
    });
  });

  it('starts over at another offset', () => {
    const decision = decideHold(stored, { offset: 9n, heldSinceMs: at('06:30:00').getTime(), attempts: 1 }, null);
    expect(decision).toMatchObject({ kind: 'write', since: at('06:30:00'), failures: 1, attempts: 1 });
  });

  it('never brings back a hold that a skip or seek lifted after it began', () => {
    const hold = { offset: 7n, heldSinceMs: at('06:21:01').getTime(), attempts: 3 };
    expect(decideHold(null, hold, at('06:25:00'))).toEqual({ kind: 'ignore' });
    // A hold that began after the lift (a seek back before the record) is a new hold.
    expect(decideHold(null, { ...hold, heldSinceMs: at('06:26:00').getTime() }, at('06:25:00')).kind).toBe('write');
  });
});
