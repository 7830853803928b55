/** Reasons shown before the rest fold away: a group with hundreds of partitions gives hundreds of reasons. */
const SHOWN_REASONS = 5;

/** Why an alert fires: the first SHOWN_REASONS reasons, the rest behind "and N more". */
export function AlertReasons({ reasons }: { reasons: readonly string[] }) {
  const list = (items: readonly string[]) => (
    <ul className="plain-list">
      {items.map((r) => (
        <li key={r}>{r}</li>
      ))}
    </ul>
  );
  if (reasons.length <= SHOWN_REASONS) return list(reasons);
  return (
    <>
      {list(reasons.slice(0, SHOWN_REASONS))}
      <details data-testid="more-reasons">
        <summary>and {reasons.length - SHOWN_REASONS} more</summary>
        {list(reasons.slice(SHOWN_REASONS))}
      </details>
    </>
  );
}
