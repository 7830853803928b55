'use client';

import { useEffect } from 'react';
import type { DisplayZone } from '@/lib/charts/axis';
import { useHydrated, useStoreAfterHydration } from './use-hydrated';
import './display-preferences.css';

// The viewer's display choices, kept per browser in localStorage (no account setting: they follow the
// device, and nothing on the server depends on them). Until the page has hydrated, the server's defaults
// apply (UTC, the system's colour scheme), so server and first client render agree.

const ZONE_KEY = 'warden.timeZone';
const THEME_KEY = 'warden.theme';
const CHANGED = 'warden-preferences';
export type ThemeChoice = 'system' | 'light' | 'dark';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('storage', onChange);
  window.addEventListener(CHANGED, onChange);
  return () => {
    window.removeEventListener('storage', onChange);
    window.removeEventListener(CHANGED, onChange);
  };
}

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    // Storage refused (private mode, a policy): the defaults apply.
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Not kept across visits; this page still switches.
  }
  window.dispatchEvent(new Event(CHANGED));
}

/** The stored choice, or null (the defaults) until the page has hydrated, as on the server. */
function usePreference(key: string): string | null {
  return useStoreAfterHydration(subscribe, () => read(key));
}

/**
 * UTC or the viewer's local zone, for every time the dashboard shows. UTC while the server renders and the
 * page hydrates, whatever the choice: the server cannot know the viewer's zone, and a time it wrote in its own
 * zone differs from the hydrating render in the viewer's, which makes React discard the server's HTML for the
 * whole page (use-hydrated.tsx). The viewer's choice applies from the render after.
 */
export function useTimeZone(): DisplayZone {
  const hydrated = useHydrated();
  return usePreference(ZONE_KEY) === 'utc' || !hydrated ? 'utc' : 'local';
}

function useTheme(): ThemeChoice {
  const stored = usePreference(THEME_KEY);
  return stored === 'light' || stored === 'dark' ? stored : 'system';
}

/** The time-zone switch and the theme choice, in the top bar. Sets `data-theme` on <html> (none: system). */
export function DisplayPreferences() {
  const zone = useTimeZone();
  const theme = useTheme();
  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'system') delete root.dataset.theme;
    else root.dataset.theme = theme;
  }, [theme]);
  return (
    <div className="display-preferences">
      <button
        type="button"
        className="button button-small zone-toggle"
        data-testid="time-zone-toggle"
        aria-label={`Times shown in ${zone === 'utc' ? 'UTC' : 'local time'}; switch to ${zone === 'utc' ? 'local time' : 'UTC'}`}
        onClick={() => write(ZONE_KEY, zone === 'utc' ? 'local' : 'utc')}
      >
        {zone === 'utc' ? 'UTC' : 'Local time'}
      </button>
      <label className="theme-choice">
        <span className="visually-hidden">Colour theme</span>
        <select
          value={theme}
          data-testid="theme-select"
          onChange={(e) => write(THEME_KEY, e.target.value)}
          className="button button-small"
        >
          <option value="system">System theme</option>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
        </select>
      </label>
    </div>
  );
}
