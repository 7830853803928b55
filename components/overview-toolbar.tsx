'use client';

import type { Ref } from 'react';
import type { TGroupStatusCounts } from '@/lib/schemas/groups';
import { ClusterSelect } from './cluster-select';
import { NameFilter } from './name-filter';
import { groupsShownText, type OverviewView } from './overview-view';

/** The overview's filters (cluster, name, status) and how many groups they leave; `ref`: where a new page scrolls to. */
export function OverviewToolbar({
  view,
  clusters,
  onChange,
  total,
  counts,
  ref,
}: {
  view: OverviewView;
  clusters: string[];
  onChange: (change: Partial<OverviewView>) => void;
  /** Groups matching every filter. */
  total: number;
  counts: TGroupStatusCounts;
  ref: Ref<HTMLDivElement>;
}) {
  return (
    <div className="toolbar" ref={ref}>
      <ClusterSelect
        value={view.cluster}
        clusters={clusters}
        onChange={(cluster) => onChange({ cluster })}
        all={{ value: 'all', label: 'all clusters' }}
        ariaLabel="Filter groups by cluster"
      />
      <NameFilter value={view.q} onChange={(q) => onChange({ q })} />
      <label className="field-inline">
        <span>Status</span>
        <select
          value={view.status}
          onChange={(e) => onChange({ status: e.target.value as OverviewView['status'] })}
          aria-label="Filter groups by status"
        >
          <option value="all">All</option>
          <option value="LOST">Records lost</option>
          <option value="ERR">Error</option>
          <option value="QUARANTINED">Quarantined</option>
          <option value="WARN">Warning</option>
          <option value="OK">OK</option>
        </select>
      </label>
      <span className="muted" aria-live="polite" data-testid="groups-shown">
        {groupsShownText(view, total, counts)}
      </span>
    </div>
  );
}
