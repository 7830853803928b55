import { databaseToolsConfig } from '../../lib/config/database-config';
import type { ProgramConfig } from '../../lib/config/program-config';
import { dashboardConfig } from '../../lib/server/dashboard-config';
import { testsConfig } from '../../test-support/test-config';
import { workerConfig } from '../../worker/config';
import { backtestConfig } from '../backtest/config';
import { benchConfig } from '../bench/config';
import { demoConfig } from '../demo/config';
import { lighthouseConfig } from '../lighthouse/config';
import { securityScanConfig } from '../security/config';
import { testRunnerConfig } from '../test-config';
import { verifyConfig } from '../verify/config';

/** Every program's configuration, in the configuration reference's order. */
export const PROGRAM_CONFIGS: readonly ProgramConfig<unknown>[] = [
  workerConfig,
  dashboardConfig,
  demoConfig,
  benchConfig,
  verifyConfig,
  backtestConfig,
  lighthouseConfig,
  securityScanConfig,
  databaseToolsConfig,
  testRunnerConfig,
  testsConfig,
];
