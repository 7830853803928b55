import { HOLD_PREVIEW_MAX_CHARS } from './protocol.js';

const HEX_PREFIX = 'hex:';

/**
 * A size-capped, printable preview of record bytes: valid UTF-8 is kept with control characters escaped as
 * \uXXXX, anything else is shown as `hex:` followed by hex digits, so a preview never carries raw bytes to a
 * page. A longer preview is cut to `maxChars` and ends with `…` (at most maxChars + 1 characters in all).
 */
export function previewOf(bytes: Buffer | string, maxChars = HOLD_PREVIEW_MAX_CHARS): string {
  let text: string;
  if (typeof bytes === 'string') {
    text = bytes;
  } else {
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      // `hex:` and two digits a byte stay within maxChars, like text.
      const shown = Math.max(0, Math.floor((maxChars - HEX_PREFIX.length) / 2));
      return `${HEX_PREFIX}${bytes.subarray(0, shown).toString('hex')}${bytes.length > shown ? '…' : ''}`;
    }
  }
  // Every control character but tab, line feed and carriage return (C0, DEL and C1).
  const escaped = text.replace(/(?![\t\n\r])\p{Cc}/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (escaped.length <= maxChars) return escaped;
  // A cut never splits a surrogate pair (half a character would not be valid text).
  const end = /[\uD800-\uDBFF]/.test(escaped.charAt(maxChars - 1)) ? maxChars - 1 : maxChars;
  return `${escaped.slice(0, end)}…`;
}
