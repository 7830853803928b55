import type { Metadata } from 'next';
import { loadConfig } from '@/lib/config';
import { AuditPageClient } from './page-client';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Audit' };

export default function AuditPage() {
  return <AuditPageClient refreshMs={loadConfig().UI_REFRESH_MS} />;
}
