import type { NextConfig } from 'next';
import { STATIC_SECURITY_HEADERS } from './lib/server/security-headers';

const nextConfig: NextConfig = {
  // Node-only clients stay outside the bundle; they are loaded from node_modules at run time.
  serverExternalPackages: ['pg', 'kafkajs'],
  typedRoutes: false,
  // No `X-Powered-By: Next.js`: it tells a scanner which exploits to try, and nobody else needs it.
  poweredByHeader: false,
  // On every response, build assets included; proxy.ts adds the per-request policy to pages and the API.
  async headers() {
    return [{ source: '/:path*', headers: [...STATIC_SECURITY_HEADERS] }];
  },
};

export default nextConfig;
