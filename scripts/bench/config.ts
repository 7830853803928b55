import { configPart, defineProgramConfig, localBrokerPart, portBase, setting } from '../../lib/config/base';
import { workerConfig } from '../../worker/config';

// `npm run bench`'s configuration: the worker's parts (it measures the worker's code with its settings), the
// bundled broker's, and its own port base, so it runs beside `npm run demo` and `npm test`.

export const benchPart = configPart({
  id: 'bench-ports',
  title: "The bench's ports",
  about: "Its ports, apart from the demo's and npm test's.",
  shape: {
    WARDEN_BENCH_PORT_BASE: setting(portBase(20_000), {
      description:
        "`npm run bench`'s ports with the bundled broker: broker base+92, controller base+93, the dashboard it measures base+200, the example service base+250",
      example: '20000',
    }),
  },
});

export const benchConfig = defineProgramConfig({
  id: 'bench',
  title: 'The bench',
  command: 'npm run bench',
  module: 'scripts/bench/config.ts',
  about:
    "Measures the pipeline, the sampler, the control plane and the dashboard's reads (scripts/bench/; see [the bench](../developing/bench.md)).",
  reads: [...workerConfig.reads, ...workerConfig.own, localBrokerPart],
  own: [benchPart],
});

export type BenchConfig = ReturnType<typeof benchConfig.parse>;

/** `npm run bench`'s configuration from process.env, parsed once. Throws ConfigError. */
export const loadBenchConfig = (): BenchConfig => benchConfig.load();
