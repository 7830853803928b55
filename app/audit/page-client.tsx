'use client';

import { useState } from 'react';
import { AccessAuditTable } from '@/components/access-audit-table';
import { AuditActionsTable } from '@/components/audit-actions-table';
import { AuditKindSelect } from '@/components/audit-kind-select';
import { ClusterSelect } from '@/components/cluster-select';
import { useAudit } from '@/components/hooks/use-audit';
import { LossAuditTable } from '@/components/loss-audit-table';
import { RedriveAuditTable } from '@/components/redrive-audit-table';
import { EmptyState, ErrorState, LoadingState, RefreshIndicator } from '@/components/states';
import { useAuditActionFilter } from '@/components/use-audit-action-filter';
import { useUrlParam } from '@/components/use-url-param';
import type { TAuditKindFilter } from '@/lib/schemas/access-events';
import { oneOf } from '@/lib/schemas/values';

/** The cluster select's "every cluster" choice (no `?cluster=`). */
const ALL_CLUSTERS = '';

/**
 * Audit: every operator action, newest first (who, what, on which partition, why, when, and the outcome),
 * every acknowledged record loss (who, which records, why), and every sign-in and sign-out (who, from which
 * address and browser), filtered by kind; with several clusters configured, by cluster too (`?cluster=`; one
 * cluster's log has no sign-ins, which belong to none).
 */
export function AuditPageClient({ refreshMs, clusters }: { refreshMs: number; clusters: string[] }) {
  const [kind, setKind] = useState<TAuditKindFilter | undefined>(undefined);
  const [cluster, setCluster] = useUrlParam<string>('cluster', ALL_CLUSTERS, oneOf(clusters));
  const query = useAudit(refreshMs, kind, cluster === ALL_CLUSTERS ? undefined : cluster);
  const { data, error, isPending } = query;
  /** The kind and cluster chosen: a new choice draws every table from its first step again. */
  const choice = `${kind ?? ''}/${cluster}`;
  const actions = useAuditActionFilter(data?.actions, choice);

  return (
    <section aria-labelledby="audit-heading">
      <div className="page-head">
        <div>
          <h1 id="audit-heading">Audit log</h1>
          <p className="muted subtitle">
            Every resume, skip and seek asked for and what the owning worker did with it, every offset reset, every
            dead-letter redrive, every acknowledged record loss, and every sign-in and sign-out.
          </p>
        </div>
        <RefreshIndicator query={query} refreshMs={refreshMs} />
      </div>
      {error ? <ErrorState error={error} what="the audit log" hasStaleData={data !== undefined} /> : null}
      <div className="toolbar">
        <AuditKindSelect value={kind} onChange={setKind} />
        {clusters.length > 1 ? (
          <ClusterSelect
            value={cluster}
            clusters={clusters}
            onChange={setCluster}
            all={{ value: ALL_CLUSTERS, label: 'all clusters' }}
            ariaLabel="Cluster of audit entries"
            testId="audit-cluster"
          />
        ) : null}
      </div>
      {isPending ? (
        <LoadingState label="Loading the audit log…" />
      ) : !data ||
        (data.actions.length === 0 &&
          data.access.length === 0 &&
          data.redrives.length === 0 &&
          data.lossAcknowledgements.length === 0) ? (
        <EmptyState title="Nothing recorded yet.">
          Actions taken on the Quarantine page, offset resets, dead-letter redrives, acknowledged record losses, and
          sign-ins and sign-outs appear here.
        </EmptyState>
      ) : data.actions.length === 0 ? null : (
        <AuditActionsTable total={data.actions.length} view={actions} />
      )}
      {data && data.redrives.length > 0 ? <RedriveAuditTable jobs={data.redrives} choice={choice} /> : null}
      {data && data.lossAcknowledgements.length > 0 ? (
        <LossAuditTable losses={data.lossAcknowledgements} choice={choice} />
      ) : null}
      {data && data.access.length > 0 ? <AccessAuditTable events={data.access} choice={choice} /> : null}
    </section>
  );
}
