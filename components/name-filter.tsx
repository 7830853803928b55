'use client';

import { useEffect, useRef, useState } from 'react';
import { MAX_FILTER_LENGTH } from './overview-view';

/** How long the name filter waits after the last keystroke before it asks the server. */
const FILTER_DEBOUNCE_MS = 250;

/**
 * The overview's name filter. What is typed shows at once; the view (the URL and the server's answer) follows
 * once typing pauses for FILTER_DEBOUNCE_MS, so a request per keystroke never replaces the text being typed.
 */
export function NameFilter({ value, onChange }: { value: string; onChange: (q: string) => void }) {
  // What is typed but not yet in the view; null when the view holds it.
  const [typed, setTyped] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <label className="field-inline">
      <span>Filter</span>
      <input
        type="search"
        value={typed ?? value}
        maxLength={MAX_FILTER_LENGTH}
        onChange={(e) => {
          const text = e.target.value;
          setTyped(text);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => {
            onChange(text);
            setTyped(null);
          }, FILTER_DEBOUNCE_MS);
        }}
        placeholder="group name"
        aria-label="Filter groups by name"
      />
    </label>
  );
}
