import { databasePart, defineProgramConfig, kafkaPart, localBrokerPart, testPortsPart } from '../../lib/config/base';

// `npm run lighthouse`'s configuration: the database it seeds, a bundled broker of its own (unless
// KAFKA_BROKERS names one) and its ports, from npm test's port base.

export const lighthouseConfig = defineProgramConfig({
  id: 'lighthouse',
  title: 'Lighthouse',
  command: 'npm run lighthouse',
  module: 'scripts/lighthouse/config.ts',
  about:
    'Seeds a database, builds and starts the dashboard and measures its pages (scripts/lighthouse/; see [lighthouse](../developing/lighthouse.md)).',
  reads: [databasePart, kafkaPart, localBrokerPart, testPortsPart],
  own: [],
});

export type LighthouseConfig = ReturnType<typeof lighthouseConfig.parse>;

/** `npm run lighthouse`'s configuration from process.env, parsed once. Throws ConfigError. */
export const loadLighthouseConfig = (): LighthouseConfig => lighthouseConfig.load();
