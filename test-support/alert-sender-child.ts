// A process that only delivers the alert outbox, for fault tests that kill a sender with SIGKILL.
// Arguments: the webhook URL and the sender's instance id; DATABASE_URL as configured. Retries wait a minute,
// so a test can kill it between two attempts and let another sender (with a later clock) take over.
import { loadTestConfig } from './test-config';
import { createDatabase } from '../lib/db';
import { Secret } from '../lib/config/secret';
import { AlertSender } from '../worker/alerts/alert-sender';

const config = loadTestConfig();
const [webhookUrl = '', instanceId = 'child'] = process.argv.slice(2);
const sender = new AlertSender({
  db: createDatabase(config.DATABASE_URL, 3),
  receivers: new Map([['webhook', new Secret(webhookUrl)]]),
  signingSecret: null,
  maxAttempts: 5,
  timeoutMs: 30_000,
  backoff: { baseMs: 60_000, maxMs: 60_000 },
  instanceId,
  pollIntervalMs: 100,
  random: () => 0.99,
  concurrency: 1,
});
sender.start();
console.log('sender started');
