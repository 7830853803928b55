import { describe, expect, it } from 'vitest';
import { classifyStartupError, type StartupSecurityContext } from './classify-startup-error';

// Error shapes as kafkajs 2.2.4 raised them against the bundled Kafka 4.1 broker's security listeners
// (worker/kafka/security.it.ts reproduces each for real).
const kafkaError = (name: string, message: string, fields: object = {}, cause?: unknown) =>
  Object.assign(new Error(message), { name, ...fields }, cause ? { cause } : {});
const retriesExceeded = (inner: Error) =>
  kafkaError('KafkaJSNumberOfRetriesExceeded', inner.message, { retriable: false }, inner);
const connectionError = (message: string, code: string) =>
  retriesExceeded(
    kafkaError('KafkaJSConnectionError', `Connection error: ${message}`, {
      code,
      broker: '127.0.0.1:9094',
      retriable: true,
    }),
  );

const BROKERS = ['127.0.0.1:9094'];
const plaintext: StartupSecurityContext = { brokers: BROKERS, tls: null, sasl: null };
const scram: StartupSecurityContext = {
  brokers: BROKERS,
  tls: null,
  sasl: { mechanism: 'scram-sha-256', username: 'alice' },
};
const tlsWithCa: StartupSecurityContext = {
  brokers: BROKERS,
  tls: { caFile: '/etc/kafka/ca.pem', certFile: null },
  sasl: null,
};
const tlsSystemTrust: StartupSecurityContext = { brokers: BROKERS, tls: { caFile: null, certFile: null }, sasl: null };
const mtls: StartupSecurityContext = {
  brokers: BROKERS,
  tls: { caFile: '/etc/kafka/ca.pem', certFile: '/etc/kafka/client.pem' },
  sasl: null,
};

describe('classifyStartupError', () => {
  it('names the SASL credentials, the mechanism and the user when Kafka rejects them, and does not retry', () => {
    const error = kafkaError(
      'KafkaJSSASLAuthenticationError',
      'SASL SCRAM SHA256 authentication failed: Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-256',
      { retriable: false },
    );
    const verdict = classifyStartupError(error, scram);
    expect(verdict.message).toMatch(
      /^Kafka rejected the SASL credentials \(KAFKA_SASL_USERNAME\/KAFKA_SASL_PASSWORD, mechanism scram-sha-256\) of user "alice" at 127\.0\.0\.1:9094: /,
    );
    expect(verdict.message).toContain('invalid credentials');
    expect(verdict.retry).toBe('never');
    expect(verdict.settings).toContain('KAFKA_SASL_PASSWORD');
  });

  it('names KAFKA_SASL_MECHANISM when the broker does not enable it', () => {
    const error = kafkaError(
      'KafkaJSSASLAuthenticationError',
      'SASL SCRAM-SHA-512 mechanism is not supported by the server',
    );
    expect(
      classifyStartupError(error, { ...scram, sasl: { mechanism: 'scram-sha-512', username: 'alice' } }),
    ).toMatchObject({
      message: expect.stringMatching(/does not enable SASL mechanism scram-sha-512 \(KAFKA_SASL_MECHANISM\)/),
      retry: 'never',
    });
  });

  it('explains a SASL handshake on a listener without SASL', () => {
    const error = kafkaError('KafkaJSProtocolError', 'Request is not valid given the current SASL state', {
      type: 'ILLEGAL_SASL_STATE',
      code: 34,
    });
    expect(classifyStartupError(error, scram)).toMatchObject({
      message: expect.stringMatching(
        /refused the SASL handshake \(ILLEGAL_SASL_STATE\).*KAFKA_BROKERS.*KAFKA_SASL_MECHANISM/,
      ),
      retry: 'never',
    });
  });

  it.each([
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate'],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'self-signed certificate in certificate chain'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'],
  ])('calls %s an untrusted certificate and points at KAFKA_SSL_CA_FILE', (code, message) => {
    const verdict = classifyStartupError(connectionError(message, code), tlsWithCa);
    expect(verdict.message).toBe(
      `TLS handshake with 127.0.0.1:9094 failed: certificate not trusted (${code}: ${message}); check KAFKA_SSL_CA_FILE (/etc/kafka/ca.pem) holds the CA that signed the broker's certificate`,
    );
    expect(verdict).toMatchObject({ settings: ['KAFKA_SSL_CA_FILE'], retry: 'never' });
  });

  it('says only the system CAs were trusted when KAFKA_SSL_CA_FILE is unset', () => {
    const verdict = classifyStartupError(
      connectionError('unable to verify the first certificate', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'),
      tlsSystemTrust,
    );
    expect(verdict.message).toMatch(
      /certificate not trusted.*KAFKA_SSL_CA_FILE is unset, so only the system's CAs are trusted/,
    );
  });

  it('asks for a client certificate when the broker requires one, and checks the one given when it refuses it', () => {
    const required = connectionError(
      '806C22560B7F0000:error:0A000412:SSL routines:ssl3_read_bytes:sslv3 alert bad certificate:../deps/openssl/openssl/ssl/record/rec_layer_s3.c:1601:SSL alert number 42\n',
      'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE',
    );
    expect(classifyStartupError(required, tlsWithCa)).toMatchObject({
      message: expect.stringMatching(
        /the broker requires a client certificate \(ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE\); set KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE$/,
      ),
      retry: 'never',
    });
    const refused = connectionError(
      '...:SSL routines:ssl3_read_bytes:sslv3 alert certificate unknown:...',
      'ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN',
    );
    expect(classifyStartupError(refused, mtls).message).toMatch(
      /refused the client certificate .*check KAFKA_SSL_CERT_FILE \(\/etc\/kafka\/client\.pem\)/,
    );
  });

  it('names KAFKA_BROKERS for a certificate that does not name the host', () => {
    const error = connectionError(
      "Hostname/IP does not match certificate's altnames: IP: 10.0.0.1 is not in the cert's list: 127.0.0.1",
      'ERR_TLS_CERT_ALTNAME_INVALID',
    );
    expect(classifyStartupError(error, tlsWithCa)).toMatchObject({
      message: expect.stringMatching(/does not name the host.*KAFKA_BROKERS/),
      retry: 'never',
    });
  });

  it('calls an expired broker certificate what it is', () => {
    expect(
      classifyStartupError(connectionError('certificate has expired', 'CERT_HAS_EXPIRED'), tlsWithCa).message,
    ).toMatch(/certificate has expired \(CERT_HAS_EXPIRED\)/);
  });

  it('suspects a plaintext listener when TLS is reset mid-handshake, retrying only briefly', () => {
    const error = connectionError(
      'Client network socket disconnected before secure TLS connection was established',
      'ECONNRESET',
    );
    expect(classifyStartupError(error, tlsWithCa)).toMatchObject({
      message: expect.stringMatching(
        /^TLS handshake with 127\.0\.0\.1:9094 failed: the broker closed the connection \(ECONNRESET.*KAFKA_SSL=true/,
      ),
      retry: 'briefly',
    });
  });

  it('hints at TLS or SASL when a listener closes a plaintext connection', () => {
    const closed = retriesExceeded(
      kafkaError('KafkaJSConnectionClosedError', 'Closed connection', { retriable: true }),
    );
    expect(classifyStartupError(closed, plaintext)).toMatchObject({
      message:
        'Kafka at 127.0.0.1:9094 closed the connection during the start-up check: its listener may require TLS (KAFKA_SSL=true) or SASL (KAFKA_SASL_MECHANISM)',
      retry: 'briefly',
    });
    expect(classifyStartupError(closed, tlsWithCa).message).toMatch(/may require SASL \(KAFKA_SASL_MECHANISM\)$/);
  });

  it('retries an unreachable cluster until the deadline', () => {
    expect(
      classifyStartupError(connectionError('connect ECONNREFUSED 127.0.0.1:9094', 'ECONNREFUSED'), plaintext),
    ).toEqual({
      message: 'cannot reach Kafka at 127.0.0.1:9094 (ECONNREFUSED); check KAFKA_BROKERS and that the cluster is up',
      settings: ['KAFKA_BROKERS'],
      retry: 'until-deadline',
    });
    expect(
      classifyStartupError(retriesExceeded(kafkaError('KafkaJSConnectionError', 'Connection timeout')), plaintext)
        .retry,
    ).toBe('until-deadline');
  });

  it('reports anything else with its innermost error, retrying until the deadline', () => {
    expect(classifyStartupError(retriesExceeded(new Error('something odd')), plaintext)).toMatchObject({
      message: 'the Kafka start-up check against 127.0.0.1:9094 failed: Error: something odd',
      retry: 'until-deadline',
    });
  });

  it('names a missing ACL as such', () => {
    const error = kafkaError('KafkaJSProtocolError', 'Not authorized to access cluster', {
      type: 'CLUSTER_AUTHORIZATION_FAILED',
    });
    expect(classifyStartupError(error, scram)).toMatchObject({
      message: expect.stringMatching(/denied .*CLUSTER_AUTHORIZATION_FAILED.*user "alice" lacks an ACL/),
      retry: 'never',
    });
  });
});
