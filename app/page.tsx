import { loadDashboardConfig } from '@/lib/config';
import { OverviewPageClient } from './page-client';

export const dynamic = 'force-dynamic';

export default function OverviewPage() {
  const config = loadDashboardConfig();
  return (
    <OverviewPageClient
      refreshMs={config.UI_REFRESH_MS}
      sampleIntervalMs={config.SAMPLE_INTERVAL_MS}
      idleStoreMs={config.SAMPLE_IDLE_STORE_MS}
    />
  );
}
