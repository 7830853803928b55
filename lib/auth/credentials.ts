import { createHash, randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// Who may sign in, and with what: the parsed form of WARDEN_USERS and WARDEN_API_TOKENS (the dashboard's
// configuration, lib/server/dashboard-config.ts, parses the variables with these functions). Pure apart from
// hashing; no environment access.
//
// WARDEN_USERS       comma-separated `name:role:secret`; the secret is a password (at least 12 characters,
//                    no comma) or a hash made by `npm run auth:hash`: `scrypt:N:r:p:<salt>:<hash>` (base64url).
// WARDEN_API_TOKENS  comma-separated `name:role:token`; the token is at least 32 characters, or its hash
//                    `sha256:<64 hex digits>`. Callers send `Authorization: Bearer <token>`.
// Invariants: a parsed secret never appears in an error message, in JSON or in util.inspect output (Secret
// redacts itself); comparisons of presented credentials are constant-time in the presented value.

export const ROLES = ['viewer', 'operator'] as const;
export type Role = (typeof ROLES)[number];

/** operator includes viewer. */
export function roleAllows(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

export const MIN_PASSWORD_CHARS = 12;
export const MIN_TOKEN_CHARS = 32;
const NAME_PATTERN = /^[A-Za-z0-9._@-]{1,64}$/;

/** Holds secret material; prints as [redacted] in JSON, template strings and console output. */
export class Secret<T> {
  readonly #value: T;
  constructor(value: T) {
    this.#value = value;
  }
  reveal(): T {
    return this.#value;
  }
  toJSON(): string {
    return '[redacted]';
  }
  toString(): string {
    return '[redacted]';
  }
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return '[redacted]';
  }
}

export interface ScryptHash {
  kind: 'scrypt';
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

/** A configured password, kept as SHA-256 of itself so the plain text is not held. */
export interface PlainPassword {
  kind: 'plain';
  digest: Buffer;
}

export interface UserCredential {
  name: string;
  role: Role;
  secret: Secret<ScryptHash | PlainPassword>;
  /**
   * SHA-256 of the whole configured entry: part of every session signature, so changing a user's password
   * or role invalidates their sessions. Derived from the secret, so it never leaves the server.
   */
  fingerprint: Secret<string>;
}

export interface TokenCredential {
  name: string;
  role: Role;
  /** SHA-256 of the token. */
  digest: Secret<Buffer>;
}

export type ParseResult<T> = { ok: true; value: T[] } | { ok: false; problems: string[] };

const sha256 = (value: string | Buffer) => createHash('sha256').update(value).digest();

/** Splits `name:role:secret` (the secret may itself contain colons). */
function splitEntry(entry: string): { name: string; role: string; secret: string } | null {
  const first = entry.indexOf(':');
  const second = first < 0 ? -1 : entry.indexOf(':', first + 1);
  if (first < 0 || second < 0) return null;
  return {
    name: entry.slice(0, first).trim(),
    role: entry.slice(first + 1, second).trim(),
    secret: entry.slice(second + 1),
  };
}

function entriesOf(value: string): string[] {
  return value
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
}

function checkNameAndRole(
  label: string,
  name: string,
  role: string,
  seen: Set<string>,
  problems: string[],
): role is Role {
  if (!NAME_PATTERN.test(name)) problems.push(`${label}: the name must be 1-64 letters, digits or . _ @ -`);
  else if (seen.has(name)) problems.push(`${label}: "${name}" is listed twice`);
  seen.add(name);
  if (!(ROLES as readonly string[]).includes(role)) {
    problems.push(`${label}${NAME_PATTERN.test(name) ? ` ("${name}")` : ''}: the role must be viewer or operator`);
    return false;
  }
  return true;
}

/** Parses `scrypt:N:r:p:<salt>:<hash>`; null when it is not one. */
export function parseScryptHash(text: string): ScryptHash | null {
  const parts = text.split(':');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map((n) => (/^\d{1,8}$/.test(n!) ? Number(n) : NaN)) as [number, number, number];
  const salt = Buffer.from(parts[4]!, 'base64url');
  const hash = Buffer.from(parts[5]!, 'base64url');
  const powerOfTwo = N > 1 && (N & (N - 1)) === 0;
  if (!powerOfTwo || N < 2 ** 14 || N > 2 ** 20 || !(r >= 1 && r <= 32) || !(p >= 1 && p <= 16)) return null;
  if (salt.length < 16 || hash.length < 32) return null;
  return { kind: 'scrypt', N, r, p, salt, hash };
}

export function parseUsers(value: string): ParseResult<UserCredential> {
  const problems: string[] = [];
  const users: UserCredential[] = [];
  const seen = new Set<string>();
  entriesOf(value).forEach((entry, index) => {
    const label = `entry ${index + 1}`;
    const parts = splitEntry(entry);
    if (!parts) {
      problems.push(`${label}: expected name:role:password (or name:role:scrypt:… from npm run auth:hash)`);
      return;
    }
    const { name, role, secret } = parts;
    if (!checkNameAndRole(label, name, role, seen, problems)) return;
    let stored: ScryptHash | PlainPassword;
    if (secret.startsWith('scrypt:')) {
      const parsed = parseScryptHash(secret);
      if (!parsed) {
        problems.push(`${label} ("${name}"): the scrypt hash is malformed; make one with npm run auth:hash`);
        return;
      }
      stored = parsed;
    } else {
      if (secret.length < MIN_PASSWORD_CHARS) {
        problems.push(`${label} ("${name}"): the password must be at least ${MIN_PASSWORD_CHARS} characters`);
        return;
      }
      stored = { kind: 'plain', digest: sha256(secret) };
    }
    users.push({ name, role, secret: new Secret(stored), fingerprint: new Secret(sha256(entry).toString('hex')) });
  });
  if (problems.length === 0 && users.length === 0) problems.push('lists no user');
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: users };
}

export function parseTokens(value: string): ParseResult<TokenCredential> {
  const problems: string[] = [];
  const tokens: TokenCredential[] = [];
  const seen = new Set<string>();
  entriesOf(value).forEach((entry, index) => {
    const label = `entry ${index + 1}`;
    const parts = splitEntry(entry);
    if (!parts) {
      problems.push(`${label}: expected name:role:token (or name:role:sha256:<hex>)`);
      return;
    }
    const { name, role, secret } = parts;
    if (!checkNameAndRole(label, name, role, seen, problems)) return;
    if (secret.startsWith('sha256:')) {
      const hex = secret.slice('sha256:'.length);
      if (!/^[0-9a-f]{64}$/i.test(hex)) {
        problems.push(`${label} ("${name}"): sha256: must be followed by 64 hex digits`);
        return;
      }
      tokens.push({ name, role, digest: new Secret(Buffer.from(hex, 'hex')) });
    } else if (secret.length < MIN_TOKEN_CHARS || /\s/.test(secret)) {
      problems.push(`${label} ("${name}"): the token must be at least ${MIN_TOKEN_CHARS} characters without spaces`);
    } else {
      tokens.push({ name, role, digest: new Secret(sha256(secret)) });
    }
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: tokens };
}

const SCRYPT_DEFAULTS = { N: 2 ** 15, r: 8, p: 1 };
const KEY_BYTES = 32;

function scrypt(
  password: string,
  salt: Buffer,
  params: { N: number; r: number; p: number },
  length: number,
): Promise<Buffer> {
  // maxmem above the 128 * N * r bytes scrypt needs, or Node refuses N >= 2^15.
  const options: ScryptOptions = {
    N: params.N,
    r: params.r,
    p: params.p,
    maxmem: 256 * params.N * params.r + 1024 * 1024,
  };
  return new Promise((resolve, reject) =>
    scryptCallback(password, salt, length, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** `scrypt:N:r:p:<salt>:<hash>` for WARDEN_USERS (npm run auth:hash). */
export async function hashPassword(password: string, params = SCRYPT_DEFAULTS): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, params, KEY_BYTES);
  return `scrypt:${params.N}:${params.r}:${params.p}:${salt.toString('base64url')}:${hash.toString('base64url')}`;
}

/** `sha256:<hex>` of a token, for WARDEN_API_TOKENS. */
export function hashToken(token: string): string {
  return `sha256:${sha256(token).toString('hex')}`;
}

/** A hash no password matches, checked when the user is unknown so that case takes as long as a wrong password. */
let dummy: ScryptHash | undefined;
async function dummyHash(): Promise<ScryptHash> {
  dummy ??= { kind: 'scrypt', ...SCRYPT_DEFAULTS, salt: randomBytes(16), hash: randomBytes(KEY_BYTES) };
  return dummy;
}

/**
 * The user whose name and password match, or null. Always runs one scrypt (a dummy one for an unknown user
 * or a plain configured password), so the answer's timing does not say whether the user exists.
 */
export async function verifyPassword(
  users: readonly UserCredential[],
  name: string,
  password: string,
): Promise<UserCredential | null> {
  const user = users.find((u) => u.name === name);
  const stored = user?.secret.reveal();
  if (stored?.kind === 'scrypt') {
    const key = await scrypt(password, stored.salt, stored, stored.hash.length);
    return timingSafeEqual(key, stored.hash) ? user! : null;
  }
  const fake = await dummyHash();
  await scrypt(password, fake.salt, fake, fake.hash.length);
  if (stored?.kind === 'plain') return timingSafeEqual(sha256(password), stored.digest) ? user! : null;
  return null;
}

/** The token entry matching `presented`, comparing against every entry (no early exit). */
export function verifyToken(tokens: readonly TokenCredential[], presented: string): TokenCredential | null {
  const digest = sha256(presented);
  let match: TokenCredential | null = null;
  for (const token of tokens) {
    if (timingSafeEqual(digest, token.digest.reveal()) && match === null) match = token;
  }
  return match;
}
