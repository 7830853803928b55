import type { Metadata } from 'next';
import { loadConfig } from '@/lib/config';
import { RebalancesPageClient } from './page-client';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Rebalances' };

export default function RebalancesPage() {
  return <RebalancesPageClient refreshMs={loadConfig().UI_REFRESH_MS} />;
}
