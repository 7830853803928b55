import type { RefObject } from 'react';
import { REASON_MAX_CHARS } from '@/lib/schemas/values';

/**
 * The required reason an operator gives for an action the audit log keeps (an action on a held record, a loss
 * acknowledged), with its length against the API's limit (REASON_MAX_CHARS).
 */
export function AuditReasonField({
  value,
  onChange,
  invalid,
  inputRef,
  testId,
}: {
  value: string;
  onChange: (reason: string) => void;
  /** Whether the last refusal named the reason. */
  invalid: boolean;
  inputRef: RefObject<HTMLTextAreaElement | null>;
  testId: string;
}) {
  return (
    <label className="field">
      <span>
        Reason <span className="muted small">(required, kept in the audit log)</span>
      </span>
      <textarea
        ref={inputRef}
        required
        aria-required="true"
        rows={3}
        maxLength={REASON_MAX_CHARS}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={invalid}
        data-testid={testId}
      />
      <span className="muted small">
        {value.length}/{REASON_MAX_CHARS}
      </span>
    </label>
  );
}
