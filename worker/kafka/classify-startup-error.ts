// Turns a kafkajs failure of the worker's start-up connectivity check into one message an operator can act
// on, naming the setting to fix. Pure: it sees the error chain and a description of the configuration that
// holds no secret (no password, no key), so nothing it returns can leak one.

/** What the check was configured with; no secrets. */
export interface StartupSecurityContext {
  brokers: string[];
  tls: { caFile: string | null; certFile: string | null } | null;
  sasl: { mechanism: string; username: string } | null;
}

export interface StartupVerdict {
  message: string;
  /** The variables the message asks to check. */
  settings: string[];
  /**
   * 'never': a configuration problem that will not change by waiting (credentials, certificates): fail now.
   * 'briefly': usually a configuration problem (a listener of another security protocol), but a broker in
   * the middle of a restart can look the same: fail after a few identical attempts.
   * 'until-deadline': the cluster may just not be up yet: retry until the start-up deadline.
   */
  retry: 'never' | 'briefly' | 'until-deadline';
}

interface ErrorLink {
  name: string;
  message: string;
  code: string | null;
  type: string | null;
}

/** Node's certificate-verification codes that mean "this chain does not end at a CA the client trusts". */
const UNTRUSTED_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_CHAIN_TOO_LONG',
  'INVALID_CA',
]);
const VALIDITY_CODES: Record<string, string> = {
  CERT_HAS_EXPIRED: 'has expired',
  CERT_NOT_YET_VALID: 'is not valid yet',
  CERT_REVOKED: 'is revoked',
};
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
]);
const HANDSHAKE_CLOSED_CODES = new Set(['ECONNRESET', 'EPIPE']);

/** The error and its causes, outermost first (kafkajs wraps the socket's error once or twice). */
function chainOf(error: unknown): ErrorLink[] {
  const links: ErrorLink[] = [];
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 6; depth++) {
    const e = current as { name?: unknown; message?: unknown; code?: unknown; type?: unknown; cause?: unknown };
    links.push({
      name: typeof e.name === 'string' ? e.name : 'Error',
      message: typeof e.message === 'string' ? e.message.trim() : String(current),
      code: typeof e.code === 'string' ? e.code : null,
      type: typeof e.type === 'string' ? e.type : null,
    });
    current = e.cause;
  }
  return links;
}

/** The broker's or the socket's own words, shortened: OpenSSL's messages carry a source path and line. */
function detail(link: ErrorLink): string {
  const text = link.message.replace(/^Connection error: /, '').split('\n')[0]!;
  const openssl = /:SSL routines:[^:]*:([^:]+):/.exec(text);
  return openssl ? openssl[1]! : text;
}

export function classifyStartupError(error: unknown, context: StartupSecurityContext): StartupVerdict {
  const chain = chainOf(error);
  const brokers = context.brokers.join(',');
  const saslLink = chain.find((l) => l.name === 'KafkaJSSASLAuthenticationError');
  if (saslLink) {
    const mechanism = context.sasl?.mechanism ?? '?';
    if (/mechanism is not supported by the server/.test(saslLink.message)) {
      return {
        message: `Kafka at ${brokers} does not enable SASL mechanism ${mechanism} (KAFKA_SASL_MECHANISM); ask for the mechanisms its listener enables`,
        settings: ['KAFKA_SASL_MECHANISM'],
        retry: 'never',
      };
    }
    return {
      message:
        `Kafka rejected the SASL credentials (KAFKA_SASL_USERNAME/KAFKA_SASL_PASSWORD, mechanism ${mechanism}) ` +
        `of user "${context.sasl?.username ?? '?'}" at ${brokers}: ${detail(saslLink)}`,
      settings: ['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD', 'KAFKA_SASL_MECHANISM'],
      retry: 'never',
    };
  }

  const typed = chain.find((l) => l.type !== null);
  if (typed?.type === 'ILLEGAL_SASL_STATE' || typed?.type === 'UNSUPPORTED_SASL_MECHANISM') {
    return {
      message:
        `Kafka at ${brokers} refused the SASL handshake (${typed.type}): that listener does not take SASL ${context.sasl?.mechanism ?? ''}`.trimEnd() +
        '; point KAFKA_BROKERS at its SASL listener, or unset KAFKA_SASL_MECHANISM',
      settings: ['KAFKA_BROKERS', 'KAFKA_SASL_MECHANISM'],
      retry: 'never',
    };
  }
  if (typed?.type?.endsWith('_AUTHORIZATION_FAILED')) {
    return {
      message: `Kafka at ${brokers} denied the start-up check (${typed.type}): the ${context.sasl ? `user "${context.sasl.username}"` : 'client'} lacks an ACL (KAFKA_SASL_USERNAME)`,
      settings: ['KAFKA_SASL_USERNAME'],
      retry: 'never',
    };
  }

  const coded = chain.find((l) => l.code !== null);
  const code = coded?.code ?? null;
  if (coded && code) {
    if (UNTRUSTED_CODES.has(code)) {
      const fix = context.tls?.caFile
        ? `check KAFKA_SSL_CA_FILE (${context.tls.caFile}) holds the CA that signed the broker's certificate`
        : "KAFKA_SSL_CA_FILE is unset, so only the system's CAs are trusted: set it to the CA that signed the broker's certificate";
      return {
        message: `TLS handshake with ${brokers} failed: certificate not trusted (${code}: ${detail(coded)}); ${fix}`,
        settings: ['KAFKA_SSL_CA_FILE'],
        retry: 'never',
      };
    }
    if (code in VALIDITY_CODES) {
      return {
        message: `TLS handshake with ${brokers} failed: the broker's certificate ${VALIDITY_CODES[code]} (${code}); the broker needs a new certificate`,
        settings: ['KAFKA_BROKERS'],
        retry: 'never',
      };
    }
    if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
      return {
        message: `TLS handshake with ${brokers} failed: the broker's certificate does not name the host it was reached at (${detail(coded)}); use the host name its certificate carries in KAFKA_BROKERS`,
        settings: ['KAFKA_BROKERS'],
        retry: 'never',
      };
    }
    if (
      code.startsWith('ERR_SSL_') &&
      /ALERT_(BAD_CERTIFICATE|CERTIFICATE_REQUIRED|CERTIFICATE_UNKNOWN|UNKNOWN_CA|UNSUPPORTED_CERTIFICATE|CERTIFICATE_EXPIRED|CERTIFICATE_REVOKED|ACCESS_DENIED)/.test(
        code,
      )
    ) {
      const message = context.tls?.certFile
        ? `TLS handshake with ${brokers} failed: the broker refused the client certificate (${code}); check KAFKA_SSL_CERT_FILE (${context.tls.certFile}) and KAFKA_SSL_KEY_FILE: the broker must trust its CA`
        : `TLS handshake with ${brokers} failed: the broker requires a client certificate (${code}); set KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE`;
      return { message, settings: ['KAFKA_SSL_CERT_FILE', 'KAFKA_SSL_KEY_FILE'], retry: 'never' };
    }
    if (code.startsWith('ERR_SSL_')) {
      return {
        message: `TLS handshake with ${brokers} failed (${code}: ${detail(coded)}); check that KAFKA_BROKERS names a TLS listener (KAFKA_SSL=true)`,
        settings: ['KAFKA_BROKERS', 'KAFKA_SSL'],
        retry: 'never',
      };
    }
    if (HANDSHAKE_CLOSED_CODES.has(code) && context.tls) {
      return {
        message: `TLS handshake with ${brokers} failed: the broker closed the connection (${code}: ${detail(coded)}); check that KAFKA_BROKERS names a TLS listener (KAFKA_SSL=true), and whether it requires a client certificate (KAFKA_SSL_CERT_FILE/KAFKA_SSL_KEY_FILE)`,
        settings: ['KAFKA_BROKERS', 'KAFKA_SSL', 'KAFKA_SSL_CERT_FILE'],
        retry: 'briefly',
      };
    }
    if (UNREACHABLE_CODES.has(code)) {
      return {
        message: `cannot reach Kafka at ${brokers} (${code}); check KAFKA_BROKERS and that the cluster is up`,
        settings: ['KAFKA_BROKERS'],
        retry: 'until-deadline',
      };
    }
  }

  if (
    chain.some((l) => l.name === 'KafkaJSConnectionClosedError') ||
    (code !== null && HANDSHAKE_CLOSED_CODES.has(code))
  ) {
    const hint =
      !context.tls && !context.sasl
        ? 'its listener may require TLS (KAFKA_SSL=true) or SASL (KAFKA_SASL_MECHANISM)'
        : !context.tls
          ? 'its listener may require TLS (KAFKA_SSL=true), or not take SASL'
          : !context.sasl
            ? 'its listener may require SASL (KAFKA_SASL_MECHANISM)'
            : "check that the listener's security protocol is SASL_SSL";
    return {
      message: `Kafka at ${brokers} closed the connection during the start-up check: ${hint}`,
      settings: ['KAFKA_BROKERS', 'KAFKA_SSL', 'KAFKA_SASL_MECHANISM'],
      retry: 'briefly',
    };
  }
  if (chain.some((l) => l.message === 'Connection timeout' || l.name === 'KafkaJSRequestTimeoutError')) {
    return {
      message: `Kafka at ${brokers} did not answer in time; check KAFKA_BROKERS and that the cluster is up`,
      settings: ['KAFKA_BROKERS'],
      retry: 'until-deadline',
    };
  }
  const innermost = chain.at(-1);
  return {
    message: `the Kafka start-up check against ${brokers} failed: ${innermost ? `${innermost.name}: ${detail(innermost)}` : String(error)}`,
    settings: ['KAFKA_BROKERS'],
    retry: 'until-deadline',
  };
}
