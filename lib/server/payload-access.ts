import type { Role } from '../auth/credentials';
import type { TPayloadAccess } from '../schemas/dead-letters';

/**
 * Whether a caller of `role` may see record payloads (key, value and header previews) under
 * WARDEN_PAYLOAD_ACCESS: 'viewer' lets every signed-in user see them, 'operator' only operators, 'none' nobody.
 * Every API answer that carries previews (quarantines, dead letters, the records around a quarantine) asks this.
 */
export function canSeePayloads(access: TPayloadAccess, role: Role): boolean {
  if (access === 'none') return false;
  if (access === 'operator') return role === 'operator';
  return true;
}
