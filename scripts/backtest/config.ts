import { configPart, defineProgramConfig, localBrokerPart, portBase, setting } from '../../lib/config/base';
import { workerConfig } from '../../worker/config';

// `npm run backtest`'s configuration: the worker's parts (it samples with the worker's sampler settings and
// judges with the analysis settings), the bundled broker's, and its own port base.

export const backtestPart = configPart({
  id: 'backtest-ports',
  title: "The backtest's ports",
  about: "Its ports, apart from the demo's, npm test's, the bench's and verify's.",
  shape: {
    WARDEN_BACKTEST_PORT_BASE: setting(portBase(22_000), {
      description:
        "`npm run backtest`'s ports with the bundled broker: broker base+92, controller base+93; its database is `<name>_backtest`",
      example: '22000',
    }),
  },
});

export const backtestConfig = defineProgramConfig({
  id: 'backtest',
  title: 'The backtest',
  command: 'npm run backtest',
  module: 'scripts/backtest/config.ts',
  about:
    "Replays a workload and scores the advisor's past advice against what happened (scripts/backtest/; see [the backtest](../developing/backtest.md)).",
  reads: [...workerConfig.reads, ...workerConfig.own, localBrokerPart],
  own: [backtestPart],
});

export type BacktestConfig = ReturnType<typeof backtestConfig.parse>;

/** `npm run backtest`'s configuration from process.env, parsed once. Throws ConfigError. */
export const loadBacktestConfig = (): BacktestConfig => backtestConfig.load();
