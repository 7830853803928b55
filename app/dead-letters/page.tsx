import type { Metadata } from 'next';
import { loadDashboardConfig } from '@/lib/config';
import { DeadLettersPageClient } from './page-client';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Dead letters' };

export default function DeadLettersPage() {
  return <DeadLettersPageClient refreshMs={loadDashboardConfig().UI_REFRESH_MS} />;
}
