import { databasePart, defineProgramConfig, kafkaPart, testPortsPart } from '../lib/config/base';

// npm test's own configuration (scripts/test.ts): where its brokers, databases and ports go. The tests it
// runs read theirs (test-support/test-config.ts) from the environment it hands them.

export const testRunnerConfig = defineProgramConfig({
  id: 'test-runner',
  title: 'npm test',
  command: 'npm test',
  module: 'scripts/test-config.ts',
  about:
    "Starts a broker of its own per lane (unless KAFKA_BROKERS is set) and a fresh `<name>_test` database, and hands the tests their ports. The tests' own settings are read by the tests.",
  reads: [databasePart, kafkaPart, testPortsPart],
  own: [],
});

export type TestRunnerConfig = ReturnType<typeof testRunnerConfig.parse>;

/** npm test's configuration from process.env, parsed once. Throws ConfigError. */
export const loadTestRunnerConfig = (): TestRunnerConfig => testRunnerConfig.load();
