/**
 * A deterministic [0, 1) generator (mulberry32): the same seed gives the same sequence on every run and
 * machine, so a property test's failing case and a bench run's injected failures are reproducible. Not
 * for anything that needs unpredictability.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
