import type { Metadata } from 'next';
import { loadDashboardConfig } from '@/lib/config';
import { AuditPageClient } from './page-client';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Audit' };

export default function AuditPage() {
  const config = loadDashboardConfig();
  return <AuditPageClient refreshMs={config.UI_REFRESH_MS} clusters={config.clusters.map((c) => c.name)} />;
}
