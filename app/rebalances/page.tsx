import type { Metadata } from 'next';
import { loadDashboardConfig } from '@/lib/config';
import { RebalancesPageClient } from './page-client';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Rebalances' };

export default function RebalancesPage() {
  return <RebalancesPageClient refreshMs={loadDashboardConfig().UI_REFRESH_MS} />;
}
