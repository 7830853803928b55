// The ports a program derives from its port base (WARDEN_TEST_PORT_BASE, WARDEN_BENCH_PORT_BASE,
// WARDEN_VERIFY_PORT_BASE), so npm test, the bench and verify each have a bundled broker, a UI and workers
// of their own and run beside `npm run demo` (9092/3000/9464) and beside each other.

export interface BasePorts {
  broker: number;
  controller: number;
  ui: number;
  /** The first worker's port; further workers count up from it. */
  worker: number;
}

export function portsFromBase(base: number): BasePorts {
  return { broker: base + 92, controller: base + 93, ui: base + 100, worker: base + 464 };
}
