import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Secret } from '../config/secret';

// TLS and SASL settings of every Kafka client Warden builds, resolved from the KAFKA_SSL* and KAFKA_SASL_*
// variables of the configuration's Kafka part (lib/config/base.ts). Files are read and checked here, once, at
// start-up: a missing file, a file that is not PEM, or a key that does not belong to its certificate is a
// configuration error naming the variable, never a TLS failure later. No message here ever contains a
// password or key material.

export const SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;
export type SaslMechanism = (typeof SASL_MECHANISMS)[number];

export interface KafkaTlsSettings {
  /** KAFKA_SSL_CA_FILE and its certificates; null: the system's trusted CAs. */
  caFile: string | null;
  ca: string[] | null;
  /**
   * KAFKA_SSL_CERT_FILE / KAFKA_SSL_KEY_FILE: the client certificate (chain) and key for mutual TLS; both or
   * neither. `key` is unencrypted PEM: an encrypted file is decrypted here with KAFKA_SSL_KEY_PASSWORD.
   */
  certFile: string | null;
  cert: string | null;
  keyFile: string | null;
  key: Secret | null;
}

export interface KafkaSaslSettings {
  mechanism: SaslMechanism;
  username: string;
  password: Secret;
}

/** null members: plaintext and no authentication (the default, and what the bundled broker speaks). */
export interface KafkaSecuritySettings {
  tls: KafkaTlsSettings | null;
  sasl: KafkaSaslSettings | null;
}

/** The already-parsed variables this reads (the Kafka part, lib/config/base.ts). */
export interface KafkaSecurityVariables {
  KAFKA_BROKERS: string[] | null;
  KAFKA_SSL: boolean;
  KAFKA_SSL_CA_FILE?: string | undefined;
  KAFKA_SSL_CERT_FILE?: string | undefined;
  KAFKA_SSL_KEY_FILE?: string | undefined;
  KAFKA_SSL_KEY_PASSWORD?: Secret | undefined;
  KAFKA_SASL_MECHANISM?: SaslMechanism | undefined;
  KAFKA_SASL_USERNAME?: string | undefined;
  KAFKA_SASL_PASSWORD?: Secret | undefined;
}

export interface SecurityProblem {
  variable: keyof KafkaSecurityVariables;
  message: string;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * Checks the combination of security variables and reads the PEM files. Returns the settings, or the
 * problems (each naming one variable) when any is wrong; `readFile` is replaceable for unit tests.
 */
export function resolveKafkaSecurity(
  vars: KafkaSecurityVariables,
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): { settings: KafkaSecuritySettings; problems: SecurityProblem[] } {
  const problems: SecurityProblem[] = [];
  const problem = (variable: keyof KafkaSecurityVariables, message: string) => problems.push({ variable, message });

  const files = {
    KAFKA_SSL_CA_FILE: vars.KAFKA_SSL_CA_FILE,
    KAFKA_SSL_CERT_FILE: vars.KAFKA_SSL_CERT_FILE,
    KAFKA_SSL_KEY_FILE: vars.KAFKA_SSL_KEY_FILE,
  };
  let tls: KafkaTlsSettings | null = null;
  if (!vars.KAFKA_SSL) {
    const tlsOnly = { ...files, KAFKA_SSL_KEY_PASSWORD: vars.KAFKA_SSL_KEY_PASSWORD };
    for (const [variable, value] of Object.entries(tlsOnly)) {
      if (value !== undefined)
        problem(
          variable as keyof typeof tlsOnly,
          'is set but KAFKA_SSL is not true (set KAFKA_SSL=true to connect with TLS)',
        );
    }
  } else {
    if (vars.KAFKA_SSL_CERT_FILE !== undefined && vars.KAFKA_SSL_KEY_FILE === undefined) {
      problem(
        'KAFKA_SSL_KEY_FILE',
        'is required with KAFKA_SSL_CERT_FILE (the client certificate and its key go together)',
      );
    }
    if (vars.KAFKA_SSL_KEY_FILE !== undefined && vars.KAFKA_SSL_CERT_FILE === undefined) {
      problem(
        'KAFKA_SSL_CERT_FILE',
        'is required with KAFKA_SSL_KEY_FILE (the client certificate and its key go together)',
      );
    }
    const read = (variable: keyof typeof files): string | null => {
      const path = files[variable];
      if (path === undefined) return null;
      try {
        return readFile(path);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        problem(variable, `cannot read the file${code ? ` (${code})` : ''}`);
        return null;
      }
    };
    const caText = read('KAFKA_SSL_CA_FILE');
    const certText = read('KAFKA_SSL_CERT_FILE');
    const keyText = read('KAFKA_SSL_KEY_FILE');
    const ca = caText === null ? null : certificatesIn(caText);
    if (caText !== null && ca === null)
      problem('KAFKA_SSL_CA_FILE', 'holds no PEM certificate (-----BEGIN CERTIFICATE-----)');
    const leaf = certText === null ? null : (certificatesIn(certText)?.[0] ?? null);
    if (certText !== null && leaf === null)
      problem('KAFKA_SSL_CERT_FILE', 'holds no PEM certificate (-----BEGIN CERTIFICATE-----)');
    const key = keyText === null ? null : privateKeyIn(keyText, vars.KAFKA_SSL_KEY_PASSWORD ?? null, problem);
    if (keyText === null && vars.KAFKA_SSL_KEY_PASSWORD !== undefined && vars.KAFKA_SSL_KEY_FILE === undefined) {
      problem('KAFKA_SSL_KEY_PASSWORD', 'is set but KAFKA_SSL_KEY_FILE is not (it decrypts that file)');
    }
    if (leaf !== null && key !== null && !new X509Certificate(leaf).checkPrivateKey(key.object)) {
      problem('KAFKA_SSL_KEY_FILE', 'is not the private key of the certificate in KAFKA_SSL_CERT_FILE');
    }
    tls = {
      caFile: vars.KAFKA_SSL_CA_FILE ?? null,
      ca,
      certFile: vars.KAFKA_SSL_CERT_FILE ?? null,
      cert: certText,
      keyFile: vars.KAFKA_SSL_KEY_FILE ?? null,
      key: key === null ? null : new Secret(key.pem),
    };
  }

  let sasl: KafkaSaslSettings | null = null;
  const { KAFKA_SASL_MECHANISM: mechanism, KAFKA_SASL_USERNAME: username, KAFKA_SASL_PASSWORD: password } = vars;
  if (mechanism !== undefined) {
    if (username === undefined) problem('KAFKA_SASL_USERNAME', 'is required when KAFKA_SASL_MECHANISM is set');
    if (password === undefined) problem('KAFKA_SASL_PASSWORD', 'is required when KAFKA_SASL_MECHANISM is set');
    if (username !== undefined && password !== undefined) sasl = { mechanism, username, password };
  } else if (username !== undefined || password !== undefined) {
    problem(
      'KAFKA_SASL_MECHANISM',
      'is required when KAFKA_SASL_USERNAME or KAFKA_SASL_PASSWORD is set (plain, scram-sha-256 or scram-sha-512)',
    );
  }

  if ((vars.KAFKA_SSL || mechanism !== undefined) && vars.KAFKA_BROKERS === null) {
    problem(
      'KAFKA_BROKERS',
      'is required with KAFKA_SSL or KAFKA_SASL_MECHANISM (the bundled broker on WARDEN_KAFKA_PORT is plaintext)',
    );
  }
  return { settings: { tls, sasl }, problems };
}

/** PKCS#8 ("ENCRYPTED PRIVATE KEY") and traditional OpenSSL ("Proc-Type: 4,ENCRYPTED") encrypted PEM keys. */
const ENCRYPTED_PEM_KEY = /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type:\s*4,ENCRYPTED/;

/**
 * The private key in KAFKA_SSL_KEY_FILE's text and its unencrypted PEM (the text itself, or the key decrypted
 * with `password` and exported as PKCS#8); null after reporting why not. The password must match the file:
 * required for an encrypted key, refused for a plain one (a password that decrypts nothing is a
 * misconfiguration waiting to surprise, not a harmless extra).
 */
function privateKeyIn(
  text: string,
  password: Secret | null,
  problem: (variable: keyof KafkaSecurityVariables, message: string) => void,
): { object: KeyObject; pem: string } | null {
  const encrypted = ENCRYPTED_PEM_KEY.test(text);
  if (encrypted && password === null) {
    problem('KAFKA_SSL_KEY_PASSWORD', 'is required: KAFKA_SSL_KEY_FILE holds an encrypted private key');
    return null;
  }
  if (!encrypted && password !== null) {
    problem('KAFKA_SSL_KEY_PASSWORD', 'is set but KAFKA_SSL_KEY_FILE holds no encrypted private key (unset it)');
    return null;
  }
  try {
    if (!encrypted) return { object: createPrivateKey({ key: text, format: 'pem' }), pem: text };
    const object = createPrivateKey({ key: text, format: 'pem', passphrase: password!.reveal() });
    return { object, pem: object.export({ format: 'pem', type: 'pkcs8' }).toString() };
  } catch {
    if (encrypted) problem('KAFKA_SSL_KEY_PASSWORD', 'does not decrypt the private key in KAFKA_SSL_KEY_FILE');
    else problem('KAFKA_SSL_KEY_FILE', 'holds no PEM private key (-----BEGIN PRIVATE KEY-----)');
    return null;
  }
}

/** Every PEM certificate in `text`, or null when there is none or one does not parse. */
function certificatesIn(text: string): string[] | null {
  const blocks = text.match(PEM_CERTIFICATE);
  if (!blocks) return null;
  try {
    for (const block of blocks) new X509Certificate(block);
  } catch {
    return null;
  }
  return blocks;
}
