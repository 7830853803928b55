import { describe, expect, it } from 'vitest';
import { Secret } from '../config/secret';
import type { KafkaSecuritySettings } from './security';
import { isExpectedKafkajsResponse, kafkaSecurityFrom } from './client';

const settings = (security: Partial<KafkaSecuritySettings>) => ({
  kafkaSecurity: { tls: null, sasl: null, ...security },
});
const tls = { caFile: null, ca: null, certFile: null, cert: null, keyFile: null, key: null };

describe('kafkaSecurityFrom', () => {
  it('adds nothing for a plaintext cluster', () => {
    expect(kafkaSecurityFrom(settings({}))).toEqual({});
  });

  it('verifies the broker against the system CAs when no CA file is given', () => {
    expect(kafkaSecurityFrom(settings({ tls }))).toEqual({ ssl: { rejectUnauthorized: true } });
  });

  it('passes the CA certificates, and the client certificate with its key for mutual TLS', () => {
    const options = kafkaSecurityFrom(
      settings({
        tls: {
          ...tls,
          caFile: '/ca.pem',
          ca: ['CA PEM'],
          certFile: '/c.pem',
          cert: 'CERT PEM',
          keyFile: '/c.key',
          key: new Secret('KEY PEM'),
        },
      }),
    );
    expect(options).toEqual({ ssl: { rejectUnauthorized: true, ca: ['CA PEM'], cert: 'CERT PEM', key: 'KEY PEM' } });
  });

  it.each(['plain', 'scram-sha-256', 'scram-sha-512'] as const)(
    'passes SASL %s with the revealed password',
    (mechanism) => {
      const options = kafkaSecurityFrom(
        settings({ sasl: { mechanism, username: 'alice', password: new Secret('pw') } }),
      );
      expect(options).toEqual({ sasl: { mechanism, username: 'alice', password: 'pw' } });
    },
  );
});

describe('isExpectedKafkajsResponse', () => {
  it('drops the answers of a rebalance or a moving coordinator, and keeps every other error', () => {
    expect(isExpectedKafkajsResponse('Connection', { error: 'The group is rebalancing, so a rejoin is needed' })).toBe(
      true,
    );
    expect(
      isExpectedKafkajsResponse('Connection', {
        error: "The coordinator is loading and hence can't process requests for this group",
      }),
    ).toBe(true);
    expect(
      isExpectedKafkajsResponse('Connection', { error: 'Not authorized to access group: Group authorization failed' }),
    ).toBe(false);
    expect(isExpectedKafkajsResponse('Consumer', { error: 'The group is rebalancing, so a rejoin is needed' })).toBe(
      false,
    );
    expect(isExpectedKafkajsResponse('Connection', {})).toBe(false);
  });
});
