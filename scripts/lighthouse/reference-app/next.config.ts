import type { NextConfig } from 'next';

// The reference is built and served from its copy under .warden/lighthouse-reference; without a root of its
// own, Next.js takes the repository's lockfile above it for a workspace's and loads the dashboard's config.
const config: NextConfig = { turbopack: { root: process.cwd() } };

export default config;
