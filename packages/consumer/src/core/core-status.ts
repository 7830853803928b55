// The core's lifecycle state: the orchestration (consumer-core.ts) changes it, the parts read it.
//
// Invariants:
// - `fatal` and `closed`, once set, never clear.
// - No record starts unless `admitting`: not rebalancing, draining, closed or fatal.

import type { CoreState } from './types.js';

export class CoreStatus {
  rebalancing = false;
  draining = false;
  closed = false;
  /** Why the core went fatal; null while it is not. Set only by the orchestration's `setFatal`. */
  fatal: string | null = null;

  /** Records may start. */
  get admitting(): boolean {
    return this.fatal === null && !this.closed && !this.draining && !this.rebalancing;
  }

  get state(): CoreState {
    if (this.fatal !== null) return 'fatal';
    if (this.closed) return 'closed';
    if (this.draining) return 'draining';
    if (this.rebalancing) return 'rebalancing';
    return 'running';
  }
}
