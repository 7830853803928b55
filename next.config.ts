import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Node-only clients stay outside the bundle; they are loaded from node_modules at run time.
  serverExternalPackages: ['pg', 'kafkajs'],
  typedRoutes: false,
};

export default nextConfig;
