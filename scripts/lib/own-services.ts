import path from 'node:path';
import { localBrokerRunning, startLocalBroker, stopLocalBroker, type LocalBrokerOptions } from './broker';
import { clusterPortsFromBase, LocalCluster } from './cluster';
import { portsFromBase } from './port-base';

// The broker and database a script (verify, backtest) runs on by itself, so it runs beside `npm run demo`
// (9092, the `warden` database) and beside the other scripts without sharing a broker, a sampler lock or rows.

/** A database next to the configured one (`warden` → `warden_<suffix>`). */
export function siblingDatabaseUrl(databaseUrl: string, suffix: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `${url.pathname}_${suffix}`;
  return url.toString();
}

export interface OwnBroker {
  brokers: string[];
  /** The bundled broker on the script's port base; null when KAFKA_BROKERS names a cluster. */
  localBroker: LocalBrokerOptions | null;
  /** Stops the bundled broker only when this script started it (one already running is left running). */
  stop(): Promise<void>;
}

/**
 * The bundled broker on `portBase` + 92 in `.warden/<homeName>` (or WARDEN_KAFKA_HOME), started unless
 * KAFKA_BROKERS is set, in which case the configured brokers are used as they are.
 */
export async function startOwnBroker(
  config: { usesLocalBroker: boolean; kafkaBrokers: string[]; WARDEN_KAFKA_HOME?: string | undefined },
  portBase: number,
  homeName: string,
): Promise<OwnBroker> {
  if (!config.usesLocalBroker) return { brokers: config.kafkaBrokers, localBroker: null, stop: async () => {} };
  const ports = portsFromBase(portBase);
  const localBroker: LocalBrokerOptions = {
    port: ports.broker,
    controllerPort: ports.controller,
    home: config.WARDEN_KAFKA_HOME ?? path.resolve(__dirname, '..', '..', '.warden', homeName),
  };
  const startedHere = !(await localBrokerRunning(localBroker));
  const brokers = [await startLocalBroker(localBroker)];
  return { brokers, localBroker, stop: async () => (startedHere ? stopLocalBroker(localBroker) : undefined) };
}

export interface OwnCluster extends OwnBroker {
  cluster: LocalCluster;
}

/**
 * The three-node cluster on `portBase` + 600.. in `.warden/<homeName>` (or WARDEN_KAFKA_HOME), started here
 * unless it already runs; stopped at the end only when this script started it.
 */
export async function startOwnCluster(
  config: { WARDEN_KAFKA_HOME?: string | undefined },
  portBase: number,
  homeName: string,
): Promise<OwnCluster> {
  const cluster = new LocalCluster({
    home: config.WARDEN_KAFKA_HOME ?? path.resolve(__dirname, '..', '..', '.warden', homeName),
    ...clusterPortsFromBase(portBase),
  });
  const startedHere = !(await cluster.running());
  await cluster.start();
  return {
    brokers: cluster.brokers,
    localBroker: null,
    cluster,
    stop: async () => (startedHere ? cluster.stop() : undefined),
  };
}
