import { describe, expect, it } from 'vitest';
import { overviewQueryFromSearch, overviewSearch, withOverviewChange } from './overview-query';

describe('the overview query in the URL', () => {
  it('reads the parameters the API accepts and drops the rest', () => {
    const search = new URLSearchParams('status=WARN&q=orders&sort=totalLag&order=reversed&page=3&cluster=prod');
    expect(overviewQueryFromSearch(search)).toEqual({
      status: 'WARN',
      q: 'orders',
      sort: 'totalLag',
      order: 'reversed',
      page: '3',
      cluster: 'prod',
    });
    const bad = new URLSearchParams('status=BROKEN&sort=colour&page=0&pageSize=9999&cluster=Not%20Safe&other=1&q=');
    expect(overviewQueryFromSearch(bad)).toEqual({});
  });

  it('writes the same parameters back in a fixed order', () => {
    const query = { sort: 'group' as const, status: 'OK' as const, q: 'a b&c' };
    expect(overviewSearch(query)).toBe('status=OK&q=a+b%26c&sort=group');
    expect(overviewQueryFromSearch(new URLSearchParams(overviewSearch(query)))).toEqual(query);
    expect(overviewSearch({})).toBe('');
  });

  it('a change of filter or sort goes back to page 1; defaults leave the URL', () => {
    const onPage3 = { status: 'WARN' as const, page: '3' };
    expect(withOverviewChange(onPage3, { q: 'x' })).toEqual({ status: 'WARN', q: 'x' });
    expect(withOverviewChange(onPage3, { page: '4' })).toEqual({ status: 'WARN', page: '4' });
    expect(withOverviewChange(onPage3, { page: '1' })).toEqual({ status: 'WARN' });
    expect(withOverviewChange({ sort: 'totalLag', order: 'reversed' }, { sort: 'worst', order: 'natural' })).toEqual(
      {},
    );
    expect(withOverviewChange({ status: 'WARN', q: 'x' }, { status: undefined, q: '' })).toEqual({});
  });
});
