import { describe, expect, it } from 'vitest';
import { hostName, memberName, shortMemberId } from './member-name';

describe('memberName', () => {
  it('names a member by client id, host without the slash describeGroups adds, and the tail of its member id', () => {
    expect(
      memberName({
        memberId: 'warden-pipeline-e785944a-7cdb-4e0f-96d9-6f6b8ea1b2c3',
        clientId: 'warden-pipeline',
        host: '/127.0.0.1',
      }),
    ).toBe('warden-pipeline 127.0.0.1 #a1b2c3');
  });

  it('gives the same name whether the host came from describeGroups or was written without the slash', () => {
    const id = 'worker-2d1c7f0e-1111-2222-3333-444455556666';
    expect(memberName({ memberId: id, clientId: 'worker', host: '/10.0.0.7' })).toBe(
      memberName({ memberId: id, clientId: 'worker', host: '10.0.0.7' }),
    );
  });

  it('tells two sessions of one program on one host apart by their member ids', () => {
    const a = memberName({ memberId: 'w-aaaaaaaa-0000-0000-0000-000000000001', clientId: 'w', host: '/h' });
    const b = memberName({ memberId: 'w-aaaaaaaa-0000-0000-0000-000000000002', clientId: 'w', host: '/h' });
    expect(a).not.toBe(b);
  });

  it('leaves out what is unknown, and never returns an empty name', () => {
    expect(memberName({ clientId: 'etl', host: null })).toBe('etl');
    expect(memberName({ clientId: 'etl', host: '/10.0.0.1' })).toBe('etl 10.0.0.1');
    expect(memberName({ memberId: 'm-2' })).toBe('m-2');
    expect(memberName({ memberId: 'etl', clientId: 'etl', host: '/h' })).toBe('etl h');
    expect(memberName({ host: '/10.0.0.1' })).toBe('unknown client 10.0.0.1');
    expect(memberName({ clientId: '  ', memberId: '', host: '/' })).toBe('unknown member');
  });
});

describe('shortMemberId and hostName', () => {
  it('keeps the last six characters of an id, all of a shorter one', () => {
    expect(shortMemberId('c-0123456789')).toBe('456789');
    expect(shortMemberId('abc')).toBe('abc');
  });

  it('drops one leading slash and blank hosts', () => {
    expect(hostName('/127.0.0.1')).toBe('127.0.0.1');
    expect(hostName('pod-7')).toBe('pod-7');
    expect(hostName(' ')).toBeNull();
    expect(hostName(undefined)).toBeNull();
  });
});
