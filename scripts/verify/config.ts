import { configPart, defineProgramConfig, localBrokerPart, portBase, setting } from '../../lib/config/base';
import { workerConfig } from '../../worker/config';

// `npm run verify`'s configuration: the worker's parts (it runs workers with them), the bundled broker's, and
// its own port base, so it runs beside `npm run demo`, `npm test` and the bench.

export const verifyPart = configPart({
  id: 'verify-ports',
  title: "Verify's ports",
  about: "Its ports, apart from the demo's, npm test's and the bench's.",
  shape: {
    WARDEN_VERIFY_PORT_BASE: setting(portBase(21_000), {
      description:
        "`npm run verify`'s ports with the bundled broker: broker base+92, controller base+93, workers base+464 and up; with `--cluster 3`: brokers base+600..602, controllers base+610..612, proxied listeners base+620..622, proxies base+630..632; its database is `<name>_verify`",
      example: '21000',
    }),
  },
});

export const verifyConfig = defineProgramConfig({
  id: 'verify',
  title: 'Verification',
  command: 'npm run verify',
  module: 'scripts/verify/config.ts',
  about:
    'Runs workers under faults and checks what they stored (scripts/verify/; see [verification](../developing/verify.md)).',
  reads: [...workerConfig.reads, ...workerConfig.own, localBrokerPart],
  own: [verifyPart],
});

export type VerifyConfig = ReturnType<typeof verifyConfig.parse>;

/** `npm run verify`'s configuration from process.env, parsed once. Throws ConfigError. */
export const loadVerifyConfig = (): VerifyConfig => verifyConfig.load();
