import type { Metadata } from 'next';
import { loadDashboardConfig } from '@/lib/config';
import { AuditPageClient } from './page-client';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Audit' };

export default function AuditPage() {
  return <AuditPageClient refreshMs={loadDashboardConfig().UI_REFRESH_MS} />;
}
