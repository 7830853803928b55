// The sampler stores an unchanged group again only every SAMPLE_IDLE_STORE_MS (worker/sampler/idle-group-filter.ts),
// and the configuration (lib/config/base.ts) keeps two stored rounds of one group at most MAX_IDLE_GAP_MS apart
// when it skips.
// Readers therefore read a time without a stored round, up to MAX_IDLE_GAP_MS after the last stored one, as
// that round unchanged: never as a gap. A longer silence is a gap (the sampler was down; sampler_gap says so).
// The price: a sampler outage shorter than a minute also reads as unchanged.

/** The longest time between two stored rounds of one group while the sampler runs. */
export const MAX_IDLE_GAP_MS = 60_000;
