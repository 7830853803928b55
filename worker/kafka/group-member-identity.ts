import type { Admin } from 'kafkajs';

/**
 * A member's client id and host as the group coordinator reports them (describeGroups), which is how the
 * sampler and the dashboard name members; null when the group no longer lists that member id. Throws what
 * kafkajs throws (the caller keeps its own name then).
 */
export async function groupMemberIdentity(
  admin: Pick<Admin, 'describeGroups'>,
  groupId: string,
  memberId: string,
): Promise<{ clientId: string; clientHost: string } | null> {
  const { groups } = await admin.describeGroups([groupId]);
  const member = groups.find((g) => g.groupId === groupId)?.members.find((m) => m.memberId === memberId);
  return member ? { clientId: member.clientId, clientHost: member.clientHost } : null;
}
