import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { alertLink, alertPayload, signBody, slackMessage } from './alert-payload';
import type { AlertNotification, OpenAlert } from './evaluate-alerts';

const T0 = Date.UTC(2026, 11, 1, 12, 0, 0);
const alert: OpenAlert = {
  id: `group-status:orders/eu:${T0}`,
  condition: 'group-status',
  groupId: 'orders/eu',
  phase: 'firing',
  severity: 'critical',
  activeSinceMs: T0,
  firingSinceMs: T0 + 60_000,
  lastNotifiedMs: T0 + 60_000,
  notificationCount: 1,
  acknowledgedAtMs: null,
  summary: 'orders/eu is ERR: t-0 STOP <x> & co',
  reasons: ['t-0 STOP <x> & co'],
  worstTimeLag: { ms: 90_000, kind: 'exact', basis: 'record at the committed offset', topic: 't', partition: 0 },
};
const notification: AlertNotification = { dedupeKey: `${alert.id}:firing:0`, kind: 'firing', alert, silencedBy: null };

describe('alert payloads', () => {
  it('carries alert id, condition, group, cluster, status, reasons, worst time lag, firing since and a link', () => {
    const payload = alertPayload(notification, {
      cluster: 'default',
      clusterLabel: 'prod',
      dashboardUrl: 'https://w.example/',
      nowMs: T0 + 61_000,
    });
    expect(payload).toEqual({
      version: 1,
      alertId: alert.id,
      notificationId: `${alert.id}:firing:0`,
      status: 'firing',
      kind: 'firing',
      condition: 'group-status',
      severity: 'critical',
      group: 'orders/eu',
      cluster: 'prod',
      summary: alert.summary,
      reasons: alert.reasons,
      worstTimeLag: alert.worstTimeLag,
      activeSince: '2026-12-01T12:00:00.000Z',
      firingSince: '2026-12-01T12:01:00.000Z',
      resolvedAt: null,
      acknowledged: false,
      dashboardUrl: 'https://w.example/groups/orders%2Feu',
    });
    const resolved = alertPayload(
      { ...notification, kind: 'resolved' },
      { cluster: 'default', clusterLabel: 'c', dashboardUrl: 'http://x', nowMs: T0 + 120_000 },
    );
    expect(resolved).toMatchObject({ status: 'resolved', resolvedAt: '2026-12-01T12:02:00.000Z' });
  });

  it('links cluster-wide alerts to the overview and quarantines to the quarantine page', () => {
    expect(alertLink('http://x/', { groupId: null, condition: 'sampler-gap' })).toBe('http://x/');
    expect(alertLink('http://x', { groupId: 'g', condition: 'partition-quarantined' })).toBe('http://x/quarantine');
  });

  it("links another cluster's alerts to that cluster's pages, and names it as receivers see it", () => {
    expect(alertLink('http://x', { groupId: 'g', condition: 'group-status' }, 'eu-west')).toBe(
      'http://x/groups/g?cluster=eu-west',
    );
    expect(alertLink('http://x', { groupId: null, condition: 'sampler-gap' }, 'eu-west')).toBe(
      'http://x/?cluster=eu-west',
    );
    const payload = alertPayload(notification, {
      cluster: 'eu-west',
      clusterLabel: 'eu-west',
      dashboardUrl: 'http://x',
      nowMs: T0,
    });
    expect(payload).toMatchObject({ cluster: 'eu-west', dashboardUrl: 'http://x/groups/orders%2Feu?cluster=eu-west' });
  });

  it('escapes Slack mrkdwn and links the dashboard', () => {
    const message = slackMessage(
      alertPayload(notification, { cluster: 'default', clusterLabel: 'prod', dashboardUrl: 'http://x', nowMs: T0 }),
    );
    expect(message.text).toBe(':red_circle: [FIRING] orders/eu is ERR: t-0 STOP &lt;x&gt; &amp; co');
    const text = JSON.stringify(message.blocks);
    expect(text).toContain('*Worst time lag:* 1 min 30 s on t-0 (exact)');
    expect(text).toContain('<http://x/groups/orders%2Feu|Open in Warden>');
  });

  it('signs the raw body with HMAC-SHA256', () => {
    const expected = createHmac('sha256', 'sixteen-chars-secret').update('{"a":1}').digest('hex');
    expect(signBody('{"a":1}', 'sixteen-chars-secret')).toBe(`sha256=${expected}`);
    expect(signBody('{"a":2}', 'sixteen-chars-secret')).not.toBe(`sha256=${expected}`);
  });
});
