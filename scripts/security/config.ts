import { databasePart, defineProgramConfig, testPortsPart } from '../../lib/config/base';

// `npm run security:scan`'s configuration: the database next to which it makes its own, and its ports, from
// npm test's port base.

export const securityScanConfig = defineProgramConfig({
  id: 'security-scan',
  title: 'The security scan',
  command: 'npm run security:scan',
  module: 'scripts/security/config.ts',
  about: 'Builds and starts the dashboard and scans it (scripts/security/scan.ts).',
  reads: [databasePart, testPortsPart],
  own: [],
});

export type SecurityScanConfig = ReturnType<typeof securityScanConfig.parse>;

/** `npm run security:scan`'s configuration from process.env, parsed once. Throws ConfigError. */
export const loadSecurityScanConfig = (): SecurityScanConfig => securityScanConfig.load();
