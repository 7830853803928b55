import { createPrivateKey } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { kafkaPart } from '../config/base';
import { ConfigError, partsConfig } from '../config/program-config';
import { Secret } from '../config/secret';
import { resolveKafkaSecurity, type KafkaSecurityVariables } from './security';

/** The Kafka part alone: what every program that reads Kafka parses. */
const kafkaConfig = partsConfig(kafkaPart);

// Two unrelated self-signed EC certificates (valid until 2126) and the key of the first, made for these
// tests only with `openssl req -x509 -newkey ec -noenc`; they protect nothing.
const CERT_A = `-----BEGIN CERTIFICATE-----
MIIBoTCCAUegAwIBAgIURmWcqyB3c8RhO9+9cFgfmWu7DyIwCgYIKoZIzj0EAwIw
JTEjMCEGA1UEAwwad2FyZGVuIHVuaXQtdGVzdCBmaXh0dXJlIEEwIBcNMjYxMTI5
MjIyMzE5WhgPMjEyNjExMDUyMjIzMTlaMCUxIzAhBgNVBAMMGndhcmRlbiB1bml0
LXRlc3QgZml4dHVyZSBBMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEd8QT4aB4
nGL+8pi1GEDDL59pQA6R2xnX/eM9dUrhKfzT+Wzjjxa/8lxiPnEBl3HVlhiiDV0D
fonxPma2oyH/xKNTMFEwHQYDVR0OBBYEFPqOxmvntnW0K7wEOr8e1+30pxJQMB8G
A1UdIwQYMBaAFPqOxmvntnW0K7wEOr8e1+30pxJQMA8GA1UdEwEB/wQFMAMBAf8w
CgYIKoZIzj0EAwIDSAAwRQIhAP2GGLDs+6D4Rqur5ANMdzt+tccFQcEZLqc2G1CU
0EkxAiBm/D6w88dVvNxNADawFcqaPAgUTbyvp1SWaJ8sovG93w==
-----END CERTIFICATE-----
`;
const KEY_A = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg6Gkk4XU4b6tGecA1
XkXApvAz+Q21IkdFBpn60GY7ZJihRANCAAR3xBPhoHicYv7ymLUYQMMvn2lADpHb
Gdf94z11SuEp/NP5bOOPFr/yXGI+cQGXcdWWGKINXQN+ifE+ZrajIf/E
-----END PRIVATE KEY-----
`;
const CERT_B = `-----BEGIN CERTIFICATE-----
MIIBoTCCAUegAwIBAgIUWgkF1cjX5qwC7ikNhjYPCnrPX98wCgYIKoZIzj0EAwIw
JTEjMCEGA1UEAwwad2FyZGVuIHVuaXQtdGVzdCBmaXh0dXJlIEIwIBcNMjYxMTI5
MjIyMzE5WhgPMjEyNjExMDUyMjIzMTlaMCUxIzAhBgNVBAMMGndhcmRlbiB1bml0
LXRlc3QgZml4dHVyZSBCMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEBpTYW/Y8
gJi7+WGJSeCV53Jv+pc6bAzi1CN+E8A3iANPVO4aU+7tBljEv4Y8xgjc1uf0ArNF
18l9ANdl6gBOQqNTMFEwHQYDVR0OBBYEFLeu+f3XxfBwVzKYsEHYEIStAEhhMB8G
A1UdIwQYMBaAFLeu+f3XxfBwVzKYsEHYEIStAEhhMA8GA1UdEwEB/wQFMAMBAf8w
CgYIKoZIzj0EAwIDSAAwRQIhAOPfW26BBxORwUNT/ol/TYduSAMAxXFga58byI/5
wQx9AiB2xlbRNV66uB2iHt30TSxOR5bGaJ93HSQYcYyyscBbCQ==
-----END CERTIFICATE-----
`;
const ENCRYPTED_KEY_A = createPrivateKey(KEY_A)
  .export({ format: 'pem', type: 'pkcs8', cipher: 'aes-256-cbc', passphrase: 'fixture' })
  .toString();

const FILES: Record<string, string> = {
  '/pki/ca.pem': CERT_A + CERT_B,
  '/pki/client.pem': CERT_A,
  '/pki/b.pem': CERT_B,
  '/pki/client.key': KEY_A,
  '/pki/other.key': ENCRYPTED_KEY_A,
  '/pki/not-pem.txt': 'hello',
};
const readFile = (path: string): string => {
  const text = FILES[path];
  if (text === undefined) throw Object.assign(new Error(`ENOENT: no such file, open '${path}'`), { code: 'ENOENT' });
  return text;
};
const resolve = (vars: Partial<KafkaSecurityVariables>) =>
  resolveKafkaSecurity({ KAFKA_BROKERS: ['kafka-1:9093'], KAFKA_SSL: false, ...vars }, readFile);
const problemsOf = (vars: Partial<KafkaSecurityVariables>) =>
  resolve(vars).problems.map((p) => `${p.variable}: ${p.message}`);

function configProblems(env: Record<string, string>): string[] {
  try {
    kafkaConfig.parse(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('the Kafka part accepted the configuration');
}

describe('resolveKafkaSecurity', () => {
  it('is plaintext without authentication by default', () => {
    expect(resolve({})).toEqual({ settings: { tls: null, sasl: null }, problems: [] });
  });

  it('trusts the system CAs when KAFKA_SSL is on without a CA file', () => {
    const { settings, problems } = resolve({ KAFKA_SSL: true });
    expect(problems).toEqual([]);
    expect(settings.tls).toEqual({ caFile: null, ca: null, certFile: null, cert: null, keyFile: null, key: null });
  });

  it('reads every certificate of the CA file, and the client certificate with its key', () => {
    const { settings, problems } = resolve({
      KAFKA_SSL: true,
      KAFKA_SSL_CA_FILE: '/pki/ca.pem',
      KAFKA_SSL_CERT_FILE: '/pki/client.pem',
      KAFKA_SSL_KEY_FILE: '/pki/client.key',
    });
    expect(problems).toEqual([]);
    expect(settings.tls?.ca).toEqual([CERT_A.trim(), CERT_B.trim()]);
    expect(settings.tls?.cert).toBe(CERT_A);
    expect(settings.tls?.key?.reveal()).toBe(KEY_A);
    expect(settings.tls?.keyFile).toBe('/pki/client.key');
  });

  it.each([
    [{ KAFKA_SSL_CA_FILE: '/pki/ca.pem' }, 'KAFKA_SSL_CA_FILE: is set but KAFKA_SSL is not true'],
    [
      { KAFKA_SSL: true, KAFKA_SSL_CERT_FILE: '/pki/client.pem' },
      'KAFKA_SSL_KEY_FILE: is required with KAFKA_SSL_CERT_FILE',
    ],
    [
      { KAFKA_SSL: true, KAFKA_SSL_KEY_FILE: '/pki/client.key' },
      'KAFKA_SSL_CERT_FILE: is required with KAFKA_SSL_KEY_FILE',
    ],
    [{ KAFKA_SSL: true, KAFKA_SSL_CA_FILE: '/pki/missing.pem' }, 'KAFKA_SSL_CA_FILE: cannot read the file (ENOENT)'],
    [{ KAFKA_SSL: true, KAFKA_SSL_CA_FILE: '/pki/not-pem.txt' }, 'KAFKA_SSL_CA_FILE: holds no PEM certificate'],
    [
      { KAFKA_SSL: true, KAFKA_SSL_CERT_FILE: '/pki/client.key', KAFKA_SSL_KEY_FILE: '/pki/client.key' },
      'KAFKA_SSL_CERT_FILE: holds no PEM certificate',
    ],
    [
      { KAFKA_SSL: true, KAFKA_SSL_CERT_FILE: '/pki/client.pem', KAFKA_SSL_KEY_FILE: '/pki/not-pem.txt' },
      'KAFKA_SSL_KEY_FILE: holds no PEM private key',
    ],
    [
      { KAFKA_SSL: true, KAFKA_SSL_CERT_FILE: '/pki/client.pem', KAFKA_SSL_KEY_FILE: '/pki/other.key' },
      'KAFKA_SSL_KEY_PASSWORD: is required: KAFKA_SSL_KEY_FILE holds an encrypted private key',
    ],
    [
      {
        KAFKA_SSL: true,
        KAFKA_SSL_CERT_FILE: '/pki/client.pem',
        KAFKA_SSL_KEY_FILE: '/pki/other.key',
        KAFKA_SSL_KEY_PASSWORD: new Secret('wrong'),
      },
      'KAFKA_SSL_KEY_PASSWORD: does not decrypt the private key in KAFKA_SSL_KEY_FILE',
    ],
    [
      {
        KAFKA_SSL: true,
        KAFKA_SSL_CERT_FILE: '/pki/client.pem',
        KAFKA_SSL_KEY_FILE: '/pki/client.key',
        KAFKA_SSL_KEY_PASSWORD: new Secret('fixture'),
      },
      'KAFKA_SSL_KEY_PASSWORD: is set but KAFKA_SSL_KEY_FILE holds no encrypted private key',
    ],
    [
      { KAFKA_SSL: true, KAFKA_SSL_KEY_PASSWORD: new Secret('fixture') },
      'KAFKA_SSL_KEY_PASSWORD: is set but KAFKA_SSL_KEY_FILE is not',
    ],
    [{ KAFKA_SSL_KEY_PASSWORD: new Secret('fixture') }, 'KAFKA_SSL_KEY_PASSWORD: is set but KAFKA_SSL is not true'],
    [
      {
        KAFKA_SSL: true,
        KAFKA_SSL_CERT_FILE: '/pki/ca.pem',
        KAFKA_SSL_KEY_FILE: '/pki/client.key',
        KAFKA_SSL_CA_FILE: '/pki/ca.pem',
      },
      null,
    ],
    [
      { KAFKA_SASL_MECHANISM: 'plain' as const, KAFKA_SASL_USERNAME: 'warden' },
      'KAFKA_SASL_PASSWORD: is required when KAFKA_SASL_MECHANISM is set',
    ],
    [
      { KAFKA_SASL_MECHANISM: 'scram-sha-256' as const, KAFKA_SASL_PASSWORD: new Secret('pw') },
      'KAFKA_SASL_USERNAME: is required when KAFKA_SASL_MECHANISM is set',
    ],
    [
      { KAFKA_SASL_USERNAME: 'warden', KAFKA_SASL_PASSWORD: new Secret('pw') },
      'KAFKA_SASL_MECHANISM: is required when KAFKA_SASL_USERNAME or KAFKA_SASL_PASSWORD is set',
    ],
    [{ KAFKA_BROKERS: null, KAFKA_SSL: true }, 'KAFKA_BROKERS: is required with KAFKA_SSL or KAFKA_SASL_MECHANISM'],
  ])('%o: %s', (vars, expected) => {
    const problems = problemsOf(vars);
    if (expected === null) expect(problems).toEqual([]);
    else expect(problems).toEqual([expect.stringContaining(expected)]);
  });

  it('decrypts an encrypted key with KAFKA_SSL_KEY_PASSWORD and hands kafkajs the plain key', () => {
    const { settings, problems } = resolve({
      KAFKA_SSL: true,
      KAFKA_SSL_CERT_FILE: '/pki/client.pem',
      KAFKA_SSL_KEY_FILE: '/pki/other.key',
      KAFKA_SSL_KEY_PASSWORD: new Secret('fixture'),
    });
    expect(problems).toEqual([]);
    expect(settings.tls?.key?.reveal()).toBe(KEY_A);
    expect(settings.tls?.keyFile).toBe('/pki/other.key');
  });

  it("refuses a key that is not the certificate's", () => {
    expect(
      problemsOf({ KAFKA_SSL: true, KAFKA_SSL_CERT_FILE: '/pki/b.pem', KAFKA_SSL_KEY_FILE: '/pki/client.key' }),
    ).toEqual(['KAFKA_SSL_KEY_FILE: is not the private key of the certificate in KAFKA_SSL_CERT_FILE']);
  });
});

describe('Secret', () => {
  it('never shows its value when printed, serialised or inspected', () => {
    const secret = new Secret('hunter2-kafka');
    expect(secret.reveal()).toBe('hunter2-kafka');
    expect(`${secret}`).toBe('[redacted]');
    expect(JSON.stringify({ password: secret })).toBe('{"password":"[redacted]"}');
    expect(inspect({ password: secret })).not.toContain('hunter2');
  });
});

describe('the Kafka part with TLS and SASL', () => {
  const password = 'correct-horse-battery-staple';

  it('builds SASL settings, accepts the mechanism in any case, and keeps the password out of the config', () => {
    const config = kafkaConfig.parse({
      KAFKA_BROKERS: 'kafka-1:9093',
      KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
      KAFKA_SASL_USERNAME: 'warden',
      KAFKA_SASL_PASSWORD: password,
    });
    expect(config.kafkaSecurity.sasl?.mechanism).toBe('scram-sha-512');
    expect(config.kafkaSecurity.sasl?.username).toBe('warden');
    expect(config.kafkaSecurity.sasl?.password.reveal()).toBe(password);
    expect(config.kafkaSecurity.tls).toBeNull();
    expect(JSON.stringify(config)).not.toContain(password);
    expect(inspect(config, { depth: 10 })).not.toContain(password);
  });

  it('never quotes the key password', () => {
    const keyPassword = 'tr0ub4dor-key';
    const problems = configProblems({ KAFKA_BROKERS: 'kafka-1:9093', KAFKA_SSL_KEY_PASSWORD: keyPassword });
    expect(problems).toEqual([
      expect.stringMatching(/^KAFKA_SSL_KEY_PASSWORD=\(set; value not shown\): is set but KAFKA_SSL is not true/),
    ]);
    expect(problems.join('\n')).not.toContain(keyPassword);
  });

  it('refuses SASL without a password, naming the variable', () => {
    expect(
      configProblems({ KAFKA_BROKERS: 'kafka-1:9093', KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'warden' }),
    ).toEqual([
      expect.stringMatching(
        /^KAFKA_SASL_PASSWORD=missing: is required when KAFKA_SASL_MECHANISM is set \(example: KAFKA_SASL_PASSWORD=/,
      ),
    ]);
  });

  it('refuses an unknown mechanism with the allowed ones', () => {
    expect(
      configProblems({
        KAFKA_BROKERS: 'kafka-1:9093',
        KAFKA_SASL_MECHANISM: 'gssapi',
        KAFKA_SASL_USERNAME: 'u',
        KAFKA_SASL_PASSWORD: password,
      }),
    ).toEqual([expect.stringMatching(/^KAFKA_SASL_MECHANISM="gssapi": must be plain, scram-sha-256 or scram-sha-512/)]);
  });

  it('never quotes the password, whatever else is wrong', () => {
    const problems = configProblems({
      KAFKA_SASL_PASSWORD: password,
      KAFKA_SSL: 'yes',
      KAFKA_SSL_CA_FILE: '/nonexistent/ca.pem',
    });
    expect(problems.join('\n')).not.toContain(password);
    expect(problems).toEqual([expect.stringMatching(/^KAFKA_SSL="yes": must be true or false/)]);
    const later = configProblems({
      KAFKA_SASL_PASSWORD: password,
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: '/nonexistent/ca.pem',
    });
    expect(later.join('\n')).not.toContain(password);
    expect(later).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^KAFKA_SSL_CA_FILE="\/nonexistent\/ca.pem": cannot read the file \(ENOENT\)/),
        expect.stringMatching(
          /^KAFKA_SASL_MECHANISM=missing: is required when KAFKA_SASL_USERNAME or KAFKA_SASL_PASSWORD is set/,
        ),
        expect.stringMatching(/^KAFKA_BROKERS=missing: is required with KAFKA_SSL or KAFKA_SASL_MECHANISM/),
      ]),
    );
  });
});
