import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../lib/config/program-config';
import { demoConfig } from './config';

describe("the demo's configuration", () => {
  it("reads the worker's, the dashboard's and its own parts", () => {
    expect(demoConfig.parse({})).toMatchObject({
      DEMO_SCENARIO: 'story',
      DEMO_STORY_SPEED: 1,
      WORKER_PORT: 9464,
      UI_PORT: 3000,
      WARDEN_KAFKA_CONTROLLER_PORT: 9093,
    });
  });

  it('is stopped by a bad DEMO_ variable, every one named with an example', () => {
    let error: unknown;
    try {
      demoConfig.parse({ DEMO_SCENARIO: 'chaos', DEMO_STORY_SPEED: '100' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(2);
    expect(problems.find((p) => p.startsWith('DEMO_SCENARIO="chaos"'))).toMatch(
      /story.*steady.*example: DEMO_SCENARIO=story/,
    );
    expect(problems.find((p) => p.startsWith('DEMO_STORY_SPEED="100"'))).toMatch(/example: DEMO_STORY_SPEED=1/);
  });
});
