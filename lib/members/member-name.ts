// How Warden names a consumer-group member, everywhere it names one: the rebalance history, the partition
// table's owner column, the group's member list and the advice texts. Pure.
//
// `<client id> <host> #<short member id>`, e.g. `warden-pipeline 127.0.0.1 #a1b2c3`:
// - the client id says which program it is, the host where it runs (as the broker sees the connection;
//   describeGroups writes it as `/127.0.0.1`, the slash is dropped);
// - instances usually share a client id and often a host, and Kafka hands out a new member id at every join,
//   so the last six characters of the member id (the tail of its UUID) tell two sessions apart. Two members
//   with the same name are the same session.
// Parts that are unknown are left out; a member known by its id alone is named by the whole id.

export interface NameableMember {
  memberId?: string | null;
  clientId?: string | null;
  /** As the broker reports it (`/10.0.0.7`) or as a process reports itself. */
  host?: string | null;
}

const SHORT_ID_CHARS = 6;

/** The member's display name; never empty ("unknown member" when nothing is known). */
export function memberName(member: NameableMember): string {
  const memberId = nonEmpty(member.memberId);
  const clientId = nonEmpty(member.clientId);
  const host = hostName(member.host);
  if (clientId === null) return memberId ?? (host === null ? 'unknown member' : `unknown client ${host}`);
  const parts = [clientId];
  if (host !== null) parts.push(host);
  if (memberId !== null && memberId !== clientId) parts.push(`#${shortMemberId(memberId)}`);
  return parts.join(' ');
}

/** The last six characters of a member id: for `<client id>-<UUID>` ids, the tail of the UUID. */
export function shortMemberId(memberId: string): string {
  return memberId.slice(-SHORT_ID_CHARS);
}

/** A host as people write it: without the leading slash Kafka's describeGroups puts before the address. */
export function hostName(host: string | null | undefined): string | null {
  const trimmed = nonEmpty(host);
  if (trimmed === null) return null;
  return nonEmpty(trimmed.startsWith('/') ? trimmed.slice(1) : trimmed);
}

function nonEmpty(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}
