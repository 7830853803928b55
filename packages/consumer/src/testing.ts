// @warden/consumer/testing: what a host's unit tests need to drive the core on fake time: a manual clock, a
// recording source port, a core harness with hand-settled handler calls, and snapshot builders.

export { flushMicrotasks, ManualClock } from './core/testing/fake-clock.js';
export { FakeSource, type SourceCall } from './core/testing/fake-source.js';
export {
  createHarness,
  deferred,
  makeRecord,
  makeRecords,
  permanentError,
  tp,
  transientError,
  TOPIC,
  type Deferred,
  type HarnessOptions,
  type RecordSpec,
  type TestValue,
} from './core/testing/harness.js';
export { coreSnapshotOf, partitionSnapshotOf } from './core/testing/snapshots.js';
export { seededRandom } from './core/testing/seeded-random.js';
