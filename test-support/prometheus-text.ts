/** One sample of the Prometheus text exposition format. */
export interface PrometheusSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface PrometheusExposition {
  samples: PrometheusSample[];
  /** Metric family name -> its # TYPE. */
  types: Map<string, string>;
  /** Sum of the samples named `name` whose labels include every given label. */
  sum(name: string, labels?: Record<string, string>): number;
  /** The samples named `name` whose labels include every given label. */
  find(name: string, labels?: Record<string, string>): PrometheusSample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?\s*/gy;

/**
 * Parses the text exposition format (version 0.0.4) strictly: a line that is neither a comment nor a
 * well-formed sample throws with its line number, so a malformed /metrics output fails the test.
 */
export function parsePrometheusText(text: string): PrometheusExposition {
  const samples: PrometheusSample[] = [];
  const types = new Map<string, string>();
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    if (line.startsWith('#')) {
      const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
      if (type) types.set(type[1]!, type[2]!);
      return;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`line ${index + 1} is not a sample: ${line}`);
    const [, name, labelText, valueText] = match;
    const labels: Record<string, string> = {};
    if (labelText) {
      LABEL.lastIndex = 0;
      let consumed = 0;
      for (let m = LABEL.exec(labelText); m; m = LABEL.exec(labelText)) {
        labels[m[1]!] = m[2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
        consumed = LABEL.lastIndex;
      }
      if (consumed !== labelText.length) throw new Error(`line ${index + 1} has malformed labels: ${line}`);
    }
    const value = valueText === '+Inf' ? Infinity : valueText === '-Inf' ? -Infinity : Number(valueText);
    if (Number.isNaN(value) && valueText !== 'NaN') throw new Error(`line ${index + 1} has a bad value: ${line}`);
    samples.push({ name: name!, labels, value });
  });
  const matches = (sample: PrometheusSample, name: string, labels: Record<string, string>) =>
    sample.name === name && Object.entries(labels).every(([k, v]) => sample.labels[k] === v);
  const find = (name: string, labels: Record<string, string> = {}) => samples.filter((s) => matches(s, name, labels));
  return {
    samples,
    types,
    find,
    sum: (name, labels = {}) => find(name, labels).reduce((total, s) => total + s.value, 0),
  };
}
