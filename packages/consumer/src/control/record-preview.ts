import { HOLD_PREVIEW_MAX_CHARS } from './protocol.js';

/**
 * A size-capped, printable preview of record bytes: valid UTF-8 is kept with control characters escaped as
 * \uXXXX, anything else is shown as `hex:` followed by hex digits, so a preview never carries raw bytes to a
 * page. Longer text is cut and ends with `…`.
 */
export function previewOf(bytes: Buffer | string, maxChars = HOLD_PREVIEW_MAX_CHARS): string {
  let text: string;
  if (typeof bytes === 'string') {
    text = bytes;
  } else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      const hex = bytes.subarray(0, Math.floor(maxChars / 2)).toString('hex');
      return `hex:${hex}${bytes.length > maxChars / 2 ? '…' : ''}`;
    }
  }
  // Every control character but tab, line feed and carriage return (C0, DEL and C1).
  const escaped = text.replace(/(?![\t\n\r])\p{Cc}/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return escaped.length > maxChars ? `${escaped.slice(0, maxChars)}…` : escaped;
}
