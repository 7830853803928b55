/** Series as toggle buttons: the state is in aria-pressed, and a hidden one is struck through. */
export function ChartLegend({
  items,
  hidden,
  onToggle,
  label,
}: {
  items: Array<{ key: string; label: string; colour: string }>;
  hidden: ReadonlySet<string>;
  onToggle: (key: string) => void;
  label: string;
}) {
  return (
    <div className="chart-legend" role="group" aria-label={label}>
      {items.map((item) => (
        <button
          key={item.key}
          type="button"
          className="legend-item"
          aria-pressed={!hidden.has(item.key)}
          onClick={() => onToggle(item.key)}
          data-testid="legend-item"
        >
          <span className="legend-swatch" style={{ background: item.colour }} aria-hidden="true" />
          {item.label}
        </button>
      ))}
    </div>
  );
}
