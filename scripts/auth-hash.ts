// npm run auth:hash - credentials for WARDEN_USERS and WARDEN_API_TOKENS without putting secrets in them.
//   npm run -s auth:hash              asks for a password (not echoed; or pipe it in) and prints its scrypt hash
//   npm run -s auth:hash -- --token   makes a random API token and prints it with its sha256: form
// The password is read from the terminal or stdin, never from the command line (it would land in the shell's
// history and the process list).
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { createInterface } from 'node:readline';
import { hashPassword, hashToken, MIN_PASSWORD_CHARS } from '../lib/auth/credentials';
import { parseCommandLine, runCommandLine } from './lib/command-line';

const USAGE = `usage: npm run -s auth:hash [-- --token]
  (no option)  asks for a password (not echoed; or pipe it in) and prints its scrypt hash for WARDEN_USERS
  --token      makes a random API token and prints it with its sha256: form for WARDEN_API_TOKENS`;

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks)
      .toString('utf8')
      .replace(/\r?\n$/, '');
  }
  process.stderr.write('password (not shown): ');
  const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = createInterface({ input: process.stdin, output: muted, terminal: true });
  const answer = await new Promise<string>((resolve) => rl.question('', resolve));
  rl.close();
  process.stderr.write('\n');
  return answer;
}

async function main(argv: string[]): Promise<number | 'help'> {
  const { values } = parseCommandLine(argv, { token: { type: 'boolean', default: false } });
  if (values.help) return 'help';
  if (values.token) {
    const token = `wdn_${randomBytes(24).toString('base64url')}`;
    console.log(`token (give it to the client; shown once): ${token}`);
    console.log(`for WARDEN_API_TOKENS:                    <name>:<viewer|operator>:${hashToken(token)}`);
    return 0;
  }
  const password = await readPassword();
  if (password.length < MIN_PASSWORD_CHARS) {
    console.error(`auth:hash: the password must be at least ${MIN_PASSWORD_CHARS} characters`);
    return 1;
  }
  console.log(await hashPassword(password));
  return 0;
}

runCommandLine('auth:hash', USAGE, main);
