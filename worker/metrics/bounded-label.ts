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

/**
 * Keeps a counter's series bounded when its labels name things without a fixed set (groups, topics,
 * partitions): the first `cap` distinct label sets pass through; a later new one has each label of `folded`
 * replaced by "other", so its counts still add up in the totals.
 */
export class BoundedSeries<L extends string> {
  private readonly seen = new Set<string>();

  constructor(
    private readonly cap: number,
    private readonly folded: readonly L[],
  ) {}

  of(labels: Readonly<Record<L, string>>): Record<L, string> {
    const key = JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1)));
    if (this.seen.has(key)) return { ...labels };
    if (this.seen.size >= this.cap) {
      const folded: Record<L, string> = { ...labels };
      for (const label of this.folded) folded[label] = 'other';
      return folded;
    }
    this.seen.add(key);
    return { ...labels };
  }
}
