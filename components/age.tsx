'use client';

import { formatAge } from '@/lib/format';
import { useNow } from './use-now';

/**
 * "12 s ago", kept true every second by the shared clock; only this text re-renders as time passes. Nothing
 * until the page has hydrated (useNow).
 */
export function Age({ at }: { at: string }) {
  const now = useNow();
  return <>{now === null ? null : formatAge(at, now)}</>;
}
