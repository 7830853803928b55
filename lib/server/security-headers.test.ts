import { describe, expect, it } from 'vitest';
import { arrivedOverHttps, contentSecurityPolicy, newNonce, securityHeaders } from './security-headers';

const directives = (policy: string) => new Map(policy.split('; ').map((d) => [d.split(' ')[0]!, d] as const));

describe('securityHeaders', () => {
  it('production over http: nonce scripts, no eval, no framing, no plugins, own base URI, no HSTS', () => {
    const headers = securityHeaders({ nonce: 'abc123', isDevelopment: false, isHttps: false });
    const csp = directives(headers['content-security-policy']!);
    expect(csp.get('script-src')).toBe("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(csp.get('frame-ancestors')).toBe("frame-ancestors 'none'");
    expect(csp.get('object-src')).toBe("object-src 'none'");
    expect(csp.get('base-uri')).toBe("base-uri 'self'");
    expect(csp.get('default-src')).toBe("default-src 'self'");
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
    expect(headers['content-security-policy']).not.toContain('unsafe-eval');
    expect(headers).toMatchObject({
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
    });
    expect(headers).not.toHaveProperty('strict-transport-security');
  });

  it('over https adds HSTS and upgrade-insecure-requests; development allows eval and the reload socket', () => {
    const https = securityHeaders({ nonce: 'n', isDevelopment: false, isHttps: true });
    expect(https['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(directives(https['content-security-policy']!).has('upgrade-insecure-requests')).toBe(true);
    const dev = directives(contentSecurityPolicy({ nonce: 'n', isDevelopment: true, isHttps: false }));
    expect(dev.get('script-src')).toContain("'unsafe-eval'");
    expect(dev.get('connect-src')).toBe("connect-src 'self' ws:");
  });

  it('a fresh 128-bit nonce per call', () => {
    const nonces = new Set(Array.from({ length: 50 }, newNonce));
    expect(nonces.size).toBe(50);
    for (const nonce of nonces) expect(Buffer.from(nonce, 'base64')).toHaveLength(16);
  });

  it('https per the URL or the first X-Forwarded-Proto hop', () => {
    expect(arrivedOverHttps({ url: 'https://x/', forwardedProto: null })).toBe(true);
    expect(arrivedOverHttps({ url: 'http://x/', forwardedProto: 'https, http' })).toBe(true);
    expect(arrivedOverHttps({ url: 'https://x/', forwardedProto: 'http' })).toBe(false);
    expect(arrivedOverHttps({ url: 'http://x/', forwardedProto: null })).toBe(false);
  });
});
