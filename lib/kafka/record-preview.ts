/** Longest payload preview kept or shown; the record itself stays in Kafka at its offset. */
export const PREVIEW_MAX_CHARS = 2_048;

/**
 * A size-capped, printable preview: valid UTF-8 is kept (control characters escaped as \uXXXX),
 * anything else is shown as hex, so a preview can never carry raw bytes into the UI. The quarantine store
 * and the dead-letter reader both use it, so a record looks the same on both pages.
 */
export function previewOf(bytes: Buffer): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const hex = bytes.subarray(0, PREVIEW_MAX_CHARS / 2).toString('hex');
    return `hex:${hex}${bytes.length > PREVIEW_MAX_CHARS / 2 ? '…' : ''}`;
  }
  // Every control character but tab, line feed and carriage return (C0, DEL and C1).
  const escaped = text.replace(/(?![\t\n\r])\p{Cc}/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return escaped.length > PREVIEW_MAX_CHARS ? `${escaped.slice(0, PREVIEW_MAX_CHARS)}…` : escaped;
}
