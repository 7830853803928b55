'use client';

import { memo, useState } from 'react';
import type { TRedriveJob } from '@/lib/schemas/dead-letters';
import { useControlRedrive } from './hooks/use-dead-letters';

/**
 * The redrive jobs with their progress, and (operators) pause, resume and cancel with a reason for the audit log;
 * nothing while there is no job.
 */
export const RedriveJobsCard = memo(function RedriveJobsCard({
  jobs,
  canOperate,
}: {
  jobs: readonly TRedriveJob[] | undefined;
  canOperate: boolean;
}) {
  const control = useControlRedrive();
  const [reason, setReason] = useState('');
  if (!jobs || jobs.length === 0) return null;
  const act = (job: TRedriveJob, action: 'pause' | 'resume' | 'cancel') =>
    control.mutate({
      id: job.id,
      control: { action, reason: reason.trim() || `${action} from the Dead letters page` },
    });
  return (
    <section className="card" aria-labelledby="redrives-heading">
      <h2 id="redrives-heading">Redrives</h2>
      {canOperate ? (
        <label>
          Reason for pause / resume / cancel
          <input value={reason} onChange={(e) => setReason(e.target.value)} />
        </label>
      ) : null}
      {control.error ? (
        <p className="banner banner-error" role="alert">
          {control.error.message}
        </p>
      ) : null}
      <ul aria-live="polite">
        {jobs.map((job) => {
          const done = job.sent + job.skipped + job.failed;
          return (
            <li key={job.id} data-testid="redrive-job" data-status={job.status}>
              <strong>#{job.id}</strong> {job.status} · {job.requestedBy}: {job.reason}{' '}
              <progress max={Math.max(1, job.total)} value={done} aria-label={`Redrive #${job.id} progress`} />{' '}
              <span data-testid="redrive-progress">
                {job.sent} of {job.total} sent{job.skipped > 0 ? `, ${job.skipped} skipped` : ''}
              </span>{' '}
              <span className="muted">{job.ratePerSec}/s</span>
              {job.outcome ? <div className="muted">{job.outcome}</div> : null}
              {canOperate && (job.status === 'pending' || job.status === 'running') ? (
                <button type="button" onClick={() => act(job, 'pause')}>
                  Pause
                </button>
              ) : null}
              {canOperate && job.status === 'paused' ? (
                <button type="button" onClick={() => act(job, 'resume')}>
                  Resume
                </button>
              ) : null}
              {canOperate && ['pending', 'running', 'paused'].includes(job.status) ? (
                <button type="button" onClick={() => act(job, 'cancel')}>
                  Cancel
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
});
