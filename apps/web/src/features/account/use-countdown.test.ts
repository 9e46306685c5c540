import { describe, expect, it } from 'vitest';
import { countdownLabel, secondsLeft } from './use-countdown.ts';

describe('countdown', () => {
  it('counts whole seconds up, never below zero', () => {
    expect(secondsLeft(10_000, 0)).toBe(10);
    expect(secondsLeft(10_000, 100)).toBe(10);
    expect(secondsLeft(10_000, 9_001)).toBe(1);
    expect(secondsLeft(10_000, 10_000)).toBe(0);
    expect(secondsLeft(10_000, 20_000)).toBe(0);
  });

  it('words the button as "{n}秒后重新发送"', () => {
    expect(countdownLabel(300)).toBe('300秒后重新发送');
    expect(countdownLabel(1)).toBe('1秒后重新发送');
  });
});
