import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  hashPassword,
  hashToken,
  parseScryptHash,
  parseTokens,
  parseUsers,
  roleAllows,
  verifyPassword,
  verifyToken,
  type UserCredential,
} from './credentials';

const users = (value: string): UserCredential[] => {
  const parsed = parseUsers(value);
  if (!parsed.ok) throw new Error(parsed.problems.join('; '));
  return parsed.value;
};

describe('roles', () => {
  it('operator includes viewer, not the other way round', () => {
    expect(roleAllows('operator', 'viewer')).toBe(true);
    expect(roleAllows('operator', 'operator')).toBe(true);
    expect(roleAllows('viewer', 'viewer')).toBe(true);
    expect(roleAllows('viewer', 'operator')).toBe(false);
  });
});

describe('parseUsers', () => {
  it('reads name:role:password entries, a password may contain colons', () => {
    const list = users(' alice:operator:correct:horse:battery , bob:viewer:twelve-chars!');
    expect(list.map((u) => [u.name, u.role, u.secret.reveal().kind])).toEqual([
      ['alice', 'operator', 'plain'],
      ['bob', 'viewer', 'plain'],
    ]);
  });

  it('names every bad entry without quoting any secret', () => {
    const parsed = parseUsers(
      'alice:admin:supersecret-1234,bob:viewer:short,nocolons,alice:viewer:supersecret-5678,carol:operator:scrypt:1:2:3:x:y',
    );
    expect(parsed.ok).toBe(false);
    const problems = parsed.ok ? [] : parsed.problems;
    expect(problems).toEqual([
      'entry 1 ("alice"): the role must be viewer or operator',
      'entry 2 ("bob"): the password must be at least 12 characters',
      'entry 3: expected name:role:password (or name:role:scrypt:… from npm run auth:hash)',
      'entry 4: "alice" is listed twice',
      'entry 5 ("carol"): the scrypt hash is malformed; make one with npm run auth:hash',
    ]);
    expect(problems.join(' ')).not.toMatch(/supersecret|short/);
  });

  it('refuses an empty list and bad names', () => {
    expect(parseUsers(' , ')).toEqual({ ok: false, problems: ['lists no user'] });
    expect(parseUsers('a b:viewer:twelve-chars!!')).toMatchObject({
      ok: false,
      problems: ['entry 1: the name must be 1-64 letters, digits or . _ @ -'],
    });
  });

  it('keeps secrets out of JSON, strings and console output', () => {
    const [alice] = users('alice:operator:very-secret-password');
    const shown = `${JSON.stringify(alice)} ${inspect(alice, { depth: 5 })} ${String(alice!.secret)}`;
    expect(shown).not.toContain('very-secret-password');
    expect(shown).toContain('[redacted]');
  });
});

describe('passwords', () => {
  it('verifies a scrypt hash made by hashPassword, and a plain password, and refuses everything else', async () => {
    const hash = await hashPassword('open sesame 123', { N: 2 ** 14, r: 8, p: 1 });
    expect(hash).toMatch(/^scrypt:16384:8:1:[\w-]{22}:[\w-]{43}$/);
    expect(parseScryptHash(hash)).not.toBeNull();
    const list = users(`alice:operator:${hash},bob:viewer:plain-password-1`);
    expect((await verifyPassword(list, 'alice', 'open sesame 123'))?.name).toBe('alice');
    expect(await verifyPassword(list, 'alice', 'open sesame 124')).toBeNull();
    expect((await verifyPassword(list, 'bob', 'plain-password-1'))?.role).toBe('viewer');
    expect(await verifyPassword(list, 'bob', 'plain-password-2')).toBeNull();
    expect(await verifyPassword(list, 'Alice', 'open sesame 123')).toBeNull();
    expect(await verifyPassword(list, 'nobody', 'open sesame 123')).toBeNull();
  });

  it('refuses hashes with weak or absurd parameters', () => {
    const salt = Buffer.alloc(16, 1).toString('base64url');
    const key = Buffer.alloc(32, 2).toString('base64url');
    expect(parseScryptHash(`scrypt:16384:8:1:${salt}:${key}`)).not.toBeNull();
    expect(parseScryptHash(`scrypt:1024:8:1:${salt}:${key}`)).toBeNull();
    expect(parseScryptHash(`scrypt:20000:8:1:${salt}:${key}`)).toBeNull();
    expect(parseScryptHash(`scrypt:16384:8:1:${salt.slice(0, 8)}:${key}`)).toBeNull();
  });
});

describe('tokens', () => {
  const token = 'tok_0123456789abcdef0123456789abcdef';
  it('accepts a plain token and its sha256 form, compares every entry, refuses others', () => {
    const parsed = parseTokens(`ci:viewer:${token},deploy:operator:${hashToken(`${token}-deploy`)}`);
    if (!parsed.ok) throw new Error(parsed.problems.join());
    expect(verifyToken(parsed.value, token)?.name).toBe('ci');
    expect(verifyToken(parsed.value, `${token}-deploy`)?.role).toBe('operator');
    expect(verifyToken(parsed.value, `${token}x`)).toBeNull();
    expect(verifyToken(parsed.value, '')).toBeNull();
  });

  it('refuses short tokens and malformed hashes without quoting them', () => {
    const parsed = parseTokens('ci:viewer:short-token,x:operator:sha256:abc');
    expect(parsed).toEqual({
      ok: false,
      problems: [
        'entry 1 ("ci"): the token must be at least 32 characters without spaces',
        'entry 2 ("x"): sha256: must be followed by 64 hex digits',
      ],
    });
  });
});
