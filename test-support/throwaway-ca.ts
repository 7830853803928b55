import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** PEM files of a throwaway certificate authority and what it signed, all in one directory. */
export interface ThrowawayPki {
  dir: string;
  /** The CA certificate clients and the broker trust. */
  caFile: string;
  /** The broker's certificate (SAN IP:127.0.0.1 and DNS:localhost) and its unencrypted PKCS#8 key. */
  brokerCertFile: string;
  brokerKeyFile: string;
  /** A client certificate (extendedKeyUsage clientAuth) for mutual TLS, and its key. */
  clientCertFile: string;
  clientKeyFile: string;
  /** A second, unrelated CA: trusting only it must fail the handshake with the broker. */
  otherCaFile: string;
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

function makeCa(dir: string, name: string, subject: string): void {
  openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-noenc',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.pem`,
      '-days',
      '2',
      '-subj',
      subject,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ],
    dir,
  );
}

function makeLeaf(dir: string, name: string, subject: string, extensions: string): void {
  openssl(
    [
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-noenc',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.csr`,
      '-subj',
      subject,
    ],
    dir,
  );
  writeFileSync(path.join(dir, `${name}.ext`), extensions);
  openssl(
    [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${name}.pem`,
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
    ],
    dir,
  );
}

/**
 * Generates a CA, a broker certificate for 127.0.0.1 and a client certificate with the openssl CLI (EC P-256,
 * valid two days) in `dir` (created if missing), plus an unrelated second CA. Keys are unencrypted PKCS#8, as Kafka's PEM keystore and
 * Node's TLS both read them. Throws with openssl's stderr when the CLI is missing or fails.
 */
export function createThrowawayPki(dir: string): ThrowawayPki {
  mkdirSync(dir, { recursive: true });
  makeCa(dir, 'ca', '/CN=Warden throwaway test CA');
  makeCa(dir, 'other-ca', '/CN=Unrelated throwaway CA');
  makeLeaf(
    dir,
    'broker',
    '/CN=localhost',
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature,keyAgreement\n',
  );
  makeLeaf(
    dir,
    'client',
    '/CN=warden-test-client',
    'extendedKeyUsage=clientAuth\nkeyUsage=critical,digitalSignature,keyAgreement\n',
  );
  const file = (name: string) => path.join(dir, name);
  return {
    dir,
    caFile: file('ca.pem'),
    brokerCertFile: file('broker.pem'),
    brokerKeyFile: file('broker.key'),
    clientCertFile: file('client.pem'),
    clientKeyFile: file('client.key'),
    otherCaFile: file('other-ca.pem'),
  };
}
