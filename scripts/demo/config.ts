import { z } from 'zod';
import { configPart, defineProgramConfig, localBrokerPart, setting } from '../../lib/config/base';
import { dashboardConfig } from '../../lib/server/dashboard-config';
import { workerConfig } from '../../worker/config';

// `npm run demo`'s configuration: the worker's and the dashboard's parts (it runs both and hands them their
// settings), the bundled broker's, and its own below. A bad DEMO_* value stops the demo and nothing else.

export const demoPart = configPart({
  id: 'demo-story',
  title: "The demo's story and traffic",
  about: 'The traffic and the story the demo plays (see [the demo](../../README.md#what-the-demo-shows)).',
  shape: {
    DEMO_RATE_PER_SEC: setting(z.coerce.number().min(0).default(20), {
      description: 'demo background traffic rate',
      example: '20',
    }),
    DEMO_SCENARIO: setting(z.enum(['story', 'steady']).default('story'), {
      description:
        '`story`: hot key, poison record, surge, second worker (see [the demo](../../README.md#what-the-demo-shows)); `steady`: background traffic only',
      example: 'story',
    }),
    DEMO_SURGE_RATE_PER_SEC: setting(z.coerce.number().min(0).default(300), {
      description: "total rate during the story's slow period (more than the demo workers take, so a backlog builds)",
      example: '300',
    }),
    DEMO_HOT_KEY_RATE_PER_SEC: setting(z.coerce.number().min(0).default(15), {
      description: "extra rate on the story's hot key (more than one key lane takes, so its partition lags alone)",
      example: '15',
    }),
    DEMO_WORKER_LATENCY_MS: setting(z.coerce.number().int().min(0).default(200), {
      description: "simulated work per record of the demo's workers (uniform 0..N ms, via `WARDEN_FAULT_LATENCY_MS`)",
      example: '200',
    }),
    DEMO_STORY_SPEED: setting(z.coerce.number().min(0.1).max(20).default(1), {
      description: 'plays the story N times faster (tests); 1 is the pace an operator can follow',
      example: '1',
    }),
  },
});

export const demoConfig = defineProgramConfig({
  id: 'demo',
  title: 'The demo',
  command: 'npm run demo',
  module: 'scripts/demo/config.ts',
  about:
    "The bundled broker (unless KAFKA_BROKERS is set), the worker, the dashboard, the example orders service and traffic. It reads the worker's and the dashboard's parts, which it hands to the two.",
  reads: [
    ...workerConfig.reads,
    ...workerConfig.own,
    ...dashboardConfig.reads,
    ...dashboardConfig.own,
    localBrokerPart,
  ],
  own: [demoPart],
});

export type DemoConfig = ReturnType<typeof demoConfig.parse>;

/** `npm run demo`'s configuration from process.env, parsed once. Throws ConfigError. */
export const loadDemoConfig = (): DemoConfig => demoConfig.load();
