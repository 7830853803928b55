import { describe, expect, it } from 'vitest';
import { PREVIEW_MAX_CHARS, previewOf } from './quarantine-store';

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
