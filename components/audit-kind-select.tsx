import type { TAuditKindFilter } from '@/lib/schemas/access-events';
import { AUDIT_KIND_FILTERS, oneOf } from '@/lib/schemas/values';

const isAuditKind = oneOf(AUDIT_KIND_FILTERS);

/** The kind filter's choices; the API filters (GET /api/audit?kind=). */
const KIND_CHOICES: readonly { value: TAuditKindFilter | ''; label: string }[] = [
  { value: '', label: 'Everything' },
  { value: 'actions', label: 'Operator actions' },
  { value: 'access', label: 'Sign-ins and sign-outs' },
  { value: 'sign-in', label: 'Sign-ins' },
  { value: 'sign-in-failed', label: 'Failed sign-ins' },
  { value: 'sign-in-rate-limited', label: 'Rate-limited sign-ins' },
  { value: 'sign-out', label: 'Sign-outs' },
  { value: 'sign-out-all', label: 'Sign-outs everywhere' },
];

/** Which kind of audit entries to show; undefined: everything. */
export function AuditKindSelect({
  value,
  onChange,
}: {
  value: TAuditKindFilter | undefined;
  onChange: (kind: TAuditKindFilter | undefined) => void;
}) {
  return (
    <label className="field-inline">
      <span>Show</span>
      <select
        value={value ?? ''}
        onChange={(e) => onChange(isAuditKind(e.target.value) ? e.target.value : undefined)}
        aria-label="Kind of audit entries"
      >
        {KIND_CHOICES.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </label>
  );
}
