import { randomBytes } from 'node:crypto';

// The response headers proxy.ts puts on every page and API response. Pure apart from the nonce's randomness.
// - Scripts run only with this response's nonce ('strict-dynamic' lets those scripts load the chunks they
//   import); Next.js reads the nonce from the Content-Security-Policy request header proxy.ts forwards and
//   puts it on its own inline and bundle scripts, so every page must render per request (the root layout
//   reads the session cookie, which makes every page dynamic).
// - 'unsafe-eval' only in development: React's dev build evaluates code to rebuild server error stacks; the
//   production build never does.
// - Styles allow 'unsafe-inline': React renders `style` attributes (charts, bars) into the server HTML, and a
//   nonce cannot cover attributes. A style cannot run code, so this leaves script injection closed.
// - frame-ancestors 'none' with X-Frame-Options DENY for browsers older than CSP 2: no page can be framed, so
//   no hostile page can overlay an operator's Skip button (clickjacking).
// - Strict-Transport-Security only when the request arrived over https: sent over http it is ignored by
//   browsers, and on a loopback http dashboard it would be wrong.

/** 128 random bits, base64: unguessable and fresh for every response. */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

export interface SecurityHeaderOptions {
  nonce: string;
  isDevelopment: boolean;
  isHttps: boolean;
}

export function contentSecurityPolicy({ nonce, isDevelopment, isHttps }: SecurityHeaderOptions): string {
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${isDevelopment ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    // Development's hot reload talks over a WebSocket to the same host.
    `connect-src 'self'${isDevelopment ? ' ws:' : ''}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(isHttps ? ['upgrade-insecure-requests'] : []),
  ];
  return directives.join('; ');
}

/** HSTS max-age: one year, the value browsers' preload lists ask for. */
const HSTS_MAX_AGE_SEC = 31_536_000;

/** Every security header of one response; the Content-Security-Policy carries `options.nonce`. */
export function securityHeaders(options: SecurityHeaderOptions): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(options),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    ...(options.isHttps ? { 'strict-transport-security': `max-age=${HSTS_MAX_AGE_SEC}; includeSubDomains` } : {}),
  };
}

/**
 * The headers next.config.ts adds to every response, including build assets the proxy does not see. The
 * policy there has no nonce (it cannot: the assets are static); it matters only for non-HTML responses.
 */
export const STATIC_SECURITY_HEADERS: readonly { key: string; value: string }[] = [
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'same-origin' },
];

/** Whether the request arrived over https, directly or per the nearest proxy's X-Forwarded-Proto. */
export function arrivedOverHttps(request: { url: string; forwardedProto: string | null }): boolean {
  const proto = request.forwardedProto?.split(',')[0]?.trim().toLowerCase();
  return proto ? proto === 'https' : request.url.startsWith('https:');
}
