// The deterministic random the consumer package's tests use, shared with the repository's tests and tools.
export { seededRandom } from '@warden/consumer/testing';
