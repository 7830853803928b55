import type { Metadata } from 'next';
import { loadDashboardConfig } from '@/lib/config';
import { AlertsPageClient } from './page-client';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Alerts' };

export default function AlertsPage() {
  const config = loadDashboardConfig();
  return <AlertsPageClient refreshMs={config.UI_REFRESH_MS} clusters={config.clusters.map((c) => c.name)} />;
}
