'use client';

import { formatAge } from '@/lib/format';
import { useNow } from './use-now';

/** "12 s ago", kept true every second by the shared clock; only this text re-renders as time passes. */
export function Age({ at }: { at: string }) {
  const now = useNow();
  return <>{formatAge(at, now)}</>;
}
