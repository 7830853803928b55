/**
 * "Cluster" and a choice of the configured (or listed) clusters; with `all`, a first choice for every cluster
 * whose value is `all.value`.
 */
export function ClusterSelect({
  value,
  clusters,
  onChange,
  all,
  ariaLabel,
  testId,
}: {
  value: string;
  clusters: readonly string[];
  onChange: (cluster: string) => void;
  all?: { value: string; label: string };
  ariaLabel?: string;
  testId?: string;
}) {
  return (
    <label className="field-inline">
      <span>Cluster</span>
      <select value={value} onChange={(e) => onChange(e.target.value)} aria-label={ariaLabel} data-testid={testId}>
        {all ? <option value={all.value}>{all.label}</option> : null}
        {clusters.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </label>
  );
}
