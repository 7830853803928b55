import { describe, expect, it } from 'vitest';
import { ZSignInRequest } from './auth';
import { ZAuditReason, ZGroupIdParam } from './common';
import { ZAuditQuery } from './operator-actions';
import { ZRebalancesQuery } from './rebalances';

// Text that reaches Postgres: a NUL character would fail the query (500) instead of a 400 naming the field.
describe('text inputs refuse NUL and control characters', () => {
  it('group ids in paths and queries, and reasons', () => {
    for (const schema of [ZGroupIdParam, ZAuditReason])
      expect(schema.safeParse('orders\u0000x').error?.issues[0]?.message).toBe('must not contain a NUL character');
    expect(ZGroupIdParam.parse('orders.v2/ünïcode group')).toBe('orders.v2/ünïcode group');
    expect(ZAuditQuery.safeParse({ groupId: 'https://x/e.php\u0000' }).success).toBe(false);
    expect(ZRebalancesQuery.safeParse({ groupId: 'g\u0000', limit: '20' }).success).toBe(false);
    expect(ZRebalancesQuery.parse({ groupId: 'g', limit: '20' })).toMatchObject({ groupId: 'g' });
  });

  it('sign-in names', () => {
    for (const name of ['scan\u0000probe', 'line\nbreak', 'tab\tname'])
      expect(ZSignInRequest.safeParse({ name, password: 'x' }).error?.issues[0]?.message).toBe(
        'must not contain control characters',
      );
    expect(ZSignInRequest.parse({ name: 'olga', password: 'p\u0000w' })).toMatchObject({ name: 'olga' });
  });
});
