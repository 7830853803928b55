'use client';

import { useState } from 'react';
import { AlertTable } from '@/components/alert-table';
import { ClusterSelect } from '@/components/cluster-select';
import { useAlerts } from '@/components/hooks/use-alerts';
import { useCanOperate } from '@/components/session-context';
import { SilenceForm, type SilenceTarget } from '@/components/silence-form';
import { SilenceTable } from '@/components/silence-table';
import { EmptyState, ErrorState, LoadingState, RefreshIndicator } from '@/components/states';
import { useUrlParam } from '@/components/use-url-param';
import { DEFAULT_CLUSTER, oneOf } from '@/lib/schemas/values';

/** The cluster select's "every cluster" choice (no `?cluster=`). */
const ALL_CLUSTERS = '';

/**
 * Alerts: what fires now (and who has it), silences, the history, and every notification's deliveries. With
 * several clusters configured, each alert and silence names its cluster, the page can show one cluster's
 * (`?cluster=`), and a silence is set for one cluster.
 */
export function AlertsPageClient({ refreshMs, clusters }: { refreshMs: number; clusters: string[] }) {
  const several = clusters.length > 1;
  const [cluster, setCluster] = useUrlParam<string>('cluster', ALL_CLUSTERS, oneOf(clusters));
  const query = useAlerts(refreshMs, cluster === ALL_CLUSTERS ? undefined : cluster);
  const { data, error, isPending } = query;
  const canOperate = useCanOperate();
  const [silencing, setSilencing] = useState<SilenceTarget | null>(null);

  return (
    <section aria-labelledby="alerts-heading">
      <div className="page-head">
        <div>
          <h1 id="alerts-heading">Alerts</h1>
          <p className="muted subtitle">
            Evaluated after every sampler round; one alert per group and condition, delivered to the configured
            receivers.
          </p>
        </div>
        <RefreshIndicator query={query} refreshMs={refreshMs} />
      </div>
      {error ? <ErrorState error={error} what="the alerts" hasStaleData={data !== undefined} /> : null}
      {several ? (
        <div className="toolbar">
          <ClusterSelect
            value={cluster}
            clusters={clusters}
            onChange={setCluster}
            all={{ value: ALL_CLUSTERS, label: 'all clusters' }}
            ariaLabel="Cluster of alerts"
            testId="alerts-cluster"
          />
        </div>
      ) : null}
      {canOperate ? (
        <p>
          <button
            type="button"
            onClick={() =>
              setSilencing({
                cluster: cluster === ALL_CLUSTERS ? DEFAULT_CLUSTER : cluster,
                groupId: null,
                condition: null,
              })
            }
          >
            New silence…
          </button>
        </p>
      ) : null}
      {silencing ? (
        <SilenceForm
          // A new target (another row's Silence…) starts a new form.
          key={`${silencing.cluster}/${silencing.groupId ?? ''}/${silencing.condition ?? ''}`}
          initial={silencing}
          clusters={several ? clusters : null}
          onDone={() => setSilencing(null)}
        />
      ) : null}
      {isPending ? (
        <LoadingState label="Loading the alerts…" />
      ) : data ? (
        <>
          <h2>Firing now</h2>
          {data.open.length === 0 ? (
            <EmptyState title="Nothing is firing.">Alerts appear here while their condition holds.</EmptyState>
          ) : (
            <AlertTable
              alerts={data.open}
              canOperate={canOperate}
              onSilence={setSilencing}
              showCluster={several}
              testId="open-alert"
            />
          )}
          <h2>Silences</h2>
          {data.silences.length === 0 ? (
            <p className="muted">No active silence.</p>
          ) : (
            <SilenceTable silences={data.silences} showCluster={several} />
          )}
          <h2>History</h2>
          {data.history.length === 0 ? (
            <p className="muted">No alert resolved yet.</p>
          ) : (
            <AlertTable
              alerts={data.history}
              canOperate={false}
              onSilence={setSilencing}
              showCluster={several}
              testId="history-alert"
            />
          )}
        </>
      ) : null}
    </section>
  );
}
