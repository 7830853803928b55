/**
 * Keeps a label's cardinality bounded: the first `cap` distinct values pass through, later new values
 * become "other". Values are also trimmed to a safe shape, so an error message can never become a label.
 */
export class BoundedLabel {
  private readonly seen = new Set<string>();

  constructor(private readonly cap: number) {}

  of(value: string): string {
    const safe = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/.test(value) ? value : 'other';
    if (this.seen.has(safe)) return safe;
    if (this.seen.size >= this.cap) return 'other';
    this.seen.add(safe);
    return safe;
  }
}

/** An error's type for a label: its code when it has a string one (ECONNREFUSED, P1001), else its name. */
export function errorLabel(error: unknown): string {
  if (typeof error !== 'object' || error === null) return typeof error;
  const { code, name } = error as { code?: unknown; name?: unknown };
  if (typeof code === 'string' && code.length > 0) return code;
  return typeof name === 'string' && name.length > 0 ? name : 'Error';
}
