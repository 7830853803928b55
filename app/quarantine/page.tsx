import type { Metadata } from 'next';
import { loadDashboardConfig } from '@/lib/config';
import { QuarantinePageClient } from './page-client';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Quarantine' };

export default function QuarantinePage() {
  return <QuarantinePageClient refreshMs={loadDashboardConfig().UI_REFRESH_MS} />;
}
