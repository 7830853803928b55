import { describe, expect, it } from 'vitest';
import { formatAge, formatCount } from './format';

describe('formatCount', () => {
  it('groups thousands and shows unknown as a dash', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(0)).toBe('0');
    expect(formatCount(null)).toBe('—');
  });
});

describe('formatAge', () => {
  const now = Date.parse('2026-11-29T12:00:00Z');
  it('uses seconds, then minutes, then hours', () => {
    expect(formatAge('2026-11-29T11:59:48Z', now)).toBe('12 s ago');
    expect(formatAge('2026-11-29T11:55:30Z', now)).toBe('4 min ago');
    expect(formatAge('2026-11-29T09:30:00Z', now)).toBe('2 h 30 min ago');
  });
  it('never shows a negative age when clocks disagree', () => {
    expect(formatAge('2026-11-29T12:00:05Z', now)).toBe('0 s ago');
  });
});
