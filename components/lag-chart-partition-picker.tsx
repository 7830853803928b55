import { useId, useState } from 'react';
import { partitionKey } from '@/lib/charts/series-view';
import type { Series } from './lag-chart-model';

const TOP_CHOICES = [5, 8, 12, 20] as const;

/** Top N by time lag now (the default), or partitions chosen one by one. */
export function PartitionPicker({
  ranked,
  top,
  onTop,
  picked,
  onPicked,
  drawnCount,
}: {
  ranked: Series[];
  top: number;
  onTop: (n: number) => void;
  picked: ReadonlySet<string> | null;
  onPicked: (picked: ReadonlySet<string> | null) => void;
  drawnCount: number;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const chosen = picked ?? new Set(ranked.slice(0, top).map(partitionKey));
  return (
    <div className="partition-picker">
      <label htmlFor={`${id}-top`} className="small">
        Draw
      </label>
      <select
        id={`${id}-top`}
        className="button button-small"
        value={picked ? 'picked' : String(top)}
        onChange={(e) => (e.target.value === 'picked' ? onPicked(chosen) : onTop(Number(e.target.value)))}
        data-testid="partition-top"
      >
        {TOP_CHOICES.map((n) => (
          <option key={n} value={n}>
            top {n} by time lag
          </option>
        ))}
        <option value="picked">chosen partitions</option>
      </select>
      <span className="muted small">
        {drawnCount} of {ranked.length} partitions
      </span>
      <details className="picker-list" onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
        <summary className="small">Choose…</summary>
        {open ? (
          <fieldset>
            <legend className="visually-hidden">Partitions to draw</legend>
            {ranked.map((p) => {
              const key = partitionKey(p);
              return (
                <label key={key} className="small mono">
                  <input
                    type="checkbox"
                    checked={chosen.has(key)}
                    onChange={() => {
                      const next = new Set(chosen);
                      if (!next.delete(key)) next.add(key);
                      onPicked(next);
                    }}
                  />
                  {key}
                </label>
              );
            })}
          </fieldset>
        ) : null}
      </details>
    </div>
  );
}
