import { describe, expect, it } from 'vitest';
import { HOLD_PREVIEW_MAX_CHARS } from './protocol.js';
import { previewOf } from './record-preview.js';

describe('previewOf', () => {
  it('keeps valid UTF-8 text, escaping control characters but tab, line feed and carriage return', () => {
    expect(previewOf(Buffer.from('{"id":1}\tä\n'))).toBe('{"id":1}\tä\n');
    expect(previewOf(Buffer.from('a\u0000b\u001bc\u007fd\u0085'))).toBe('a\\u0000b\\u001bc\\u007fd\\u0085');
    expect(previewOf('\ufeffbom kept')).toBe('\ufeffbom kept');
    expect(previewOf(Buffer.from('\ufeffbom kept'))).toBe('\ufeffbom kept');
  });

  it('shows bytes that are not UTF-8 as hex', () => {
    expect(previewOf(Buffer.from([0xff, 0x00, 0x10]))).toBe('hex:ff0010');
  });

  it('cuts long text and long hex to the limit, plus one ellipsis', () => {
    const text = previewOf(Buffer.from('x'.repeat(HOLD_PREVIEW_MAX_CHARS + 10)));
    expect(text).toBe(`${'x'.repeat(HOLD_PREVIEW_MAX_CHARS)}…`);
    const hex = previewOf(Buffer.alloc(HOLD_PREVIEW_MAX_CHARS, 0xff));
    expect(hex.length).toBeLessThanOrEqual(HOLD_PREVIEW_MAX_CHARS + 1);
    expect(hex).toMatch(/^hex:(ff)+…$/);
    expect(previewOf(Buffer.from([0xff, 0xfe, 0xfd]), 8)).toBe('hex:fffe…');
  });

  it('never cuts a character in half', () => {
    const preview = previewOf(`ab${'😀'.repeat(5)}`, 5);
    expect(preview).toBe('ab😀…');
    expect(previewOf('abcd😀', 5)).toBe('abcd…');
  });
});
