// The core's events go to the host's observer (`onEvent`), read at every event. An observer that throws never
// breaks the engine: its error is swallowed and the part that emitted carries on.

import type { CoreEvent } from './types.js';

export class CoreEvents {
  constructor(private readonly host: { readonly onEvent?: ((event: CoreEvent) => void) | undefined }) {}

  emit(event: CoreEvent): void {
    try {
      this.host.onEvent?.(event);
    } catch {
      // An observer must not break the engine.
    }
  }
}
