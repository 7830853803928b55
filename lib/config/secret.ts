// A configured value that must never reach a log line or an error message (passwords, signing keys, webhook
// URLs that carry a token): the configuration holds it as a Secret, and only the one place that needs the
// value itself calls reveal().

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/** A value that must never reach a log line or an error message: it prints, serialises and inspects as [redacted]. */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  /** The value itself, for the one place that needs it (e.g. the kafkajs client options). */
  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return '[redacted]';
  }

  toJSON(): string {
    return '[redacted]';
  }

  [INSPECT](): string {
    return 'Secret([redacted])';
  }
}
