import type { Metadata } from 'next';
import { loadConfig } from '@/lib/config';
import { AlertsPageClient } from './page-client';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Alerts' };

export default function AlertsPage() {
  return <AlertsPageClient refreshMs={loadConfig().UI_REFRESH_MS} />;
}
