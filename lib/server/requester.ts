/**
 * Who asks for an operator action, for the audit log. There is no sign-in yet (see README: Access), so every
 * caller is recorded as the same anonymous operator; the audit shows it as such rather than inventing a name.
 */
export function requesterOf(_request: Request): string {
  return 'anonymous';
}
