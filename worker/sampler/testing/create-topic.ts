// Kept for the sampler's tests: the shared createTopic now waits for leaders the robust way.
export { createTopic as createTopicWithLeaders } from '../../../test-support/integration';
