import { randomUUID } from 'node:crypto';

/** A name no other run uses, so runs never see each other's topics or groups. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}
