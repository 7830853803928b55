// The members_before / members_after columns of rebalance_event, read back. Pure and forgiving: both writers
// store Array<{ memberId, clientId, clientHost, assignment }>, but rows written by older versions or by hand
// may hold strings or partial objects, and reading them must never throw.

import { memberName } from '../members/member-name';

export interface StoredMember {
  memberId: string | null;
  clientId: string | null;
  clientHost: string | null;
  /** Partitions per topic; null when the entry has no readable assignment. */
  assignment: Record<string, number[]> | null;
  /** The display name of an entry that is not a member object (a string as it is, anything else as JSON). */
  label: string | null;
}

export function readStoredMembers(json: unknown): StoredMember[] {
  if (!Array.isArray(json)) return [];
  return json.map((entry): StoredMember => {
    if (typeof entry === 'string') return { ...UNKNOWN, label: entry };
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry))
      return { ...UNKNOWN, label: JSON.stringify(entry) };
    const m = entry as Record<string, unknown>;
    const host = stringOrNull(m.clientHost) ?? stringOrNull(m.host);
    const known = { memberId: stringOrNull(m.memberId), clientId: stringOrNull(m.clientId), clientHost: host };
    if (known.memberId === null && known.clientId === null && host === null)
      return { ...UNKNOWN, label: JSON.stringify(entry) };
    return { ...known, assignment: assignmentOrNull(m.assignment), label: null };
  });
}

/** The member's name (lib/members/member-name.ts), or the label of an entry that is not a member. */
export function storedMemberName(member: StoredMember): string {
  return member.label ?? memberName({ memberId: member.memberId, clientId: member.clientId, host: member.clientHost });
}

const UNKNOWN = { memberId: null, clientId: null, clientHost: null, assignment: null };

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function assignmentOrNull(value: unknown): Record<string, number[]> | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const result: Record<string, number[]> = {};
  for (const [topic, partitions] of Object.entries(value as Record<string, unknown>)) {
    if (!Array.isArray(partitions) || !partitions.every((p) => Number.isInteger(p))) return null;
    result[topic] = partitions as number[];
  }
  return result;
}
