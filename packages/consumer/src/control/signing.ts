import { createHmac, timingSafeEqual } from 'node:crypto';
import { SIGNATURE_HEADER } from './protocol.js';

// Commands change what a consumer does, so a deployment can require them signed: HMAC-SHA256 with a key the
// worker and its services share, over the exact bytes of the message's value, carried in the
// `warden-signature` header as `v1=<hex>`. Acknowledgements are signed with the same key, so a reader that
// requires signatures also ignores a forged acknowledgement that would hide a command.

const SCHEME = 'v1=';

/** The header value for `value` under `key`. */
export function signControlMessage(value: Buffer, key: string | Buffer): string {
  return SCHEME + createHmac('sha256', key).update(value).digest('hex');
}

/**
 * Checks the signature header of a message against `key`: null when it is valid, else why not. Compares in
 * constant time; never throws.
 */
export function verifyControlSignature(
  value: Buffer,
  header: Buffer | string | undefined,
  key: string | Buffer,
): string | null {
  if (header === undefined) return `unsigned (no ${SIGNATURE_HEADER} header)`;
  const text = header.toString();
  if (!text.startsWith(SCHEME)) return `signature in an unknown scheme (expected ${SCHEME}<hex>)`;
  const given = Buffer.from(text.slice(SCHEME.length), 'hex');
  const expected = createHmac('sha256', key).update(value).digest();
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'signature does not match';
  return null;
}
