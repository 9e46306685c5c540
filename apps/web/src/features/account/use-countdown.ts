import { useCallback, useEffect, useState } from 'react';
import { LIMITS } from '@guji/shared';

/** Whole seconds left until `endsAt` (ms since epoch), never below zero. */
export function secondsLeft(endsAt: number, now: number): number {
  return Math.max(0, Math.ceil((endsAt - now) / 1000));
}

/** Text of a send-code button while it counts down. */
export function countdownLabel(seconds: number): string {
  return `${seconds}秒后重新发送`;
}

/**
 * A countdown for send-code buttons (spec §4: 60 s by default, 300 s for registration and reset).
 * Counts against the clock, so a busy tab does not slow it down.
 */
export function useCountdown(defaultSeconds: number = LIMITS.smsCountdownSeconds) {
  const [endsAt, setEndsAt] = useState<number | null>(null);
  const [remaining, setRemaining] = useState(0);

  useEffect(() => {
    if (endsAt === null) return undefined;
    const tick = () => {
      const left = secondsLeft(endsAt, Date.now());
      setRemaining(left);
      if (left === 0) setEndsAt(null);
    };
    tick();
    const timer = window.setInterval(tick, 250);
    return () => window.clearInterval(timer);
  }, [endsAt]);

  const start = useCallback(
    (seconds: number = defaultSeconds) => {
      setRemaining(seconds);
      setEndsAt(Date.now() + seconds * 1000);
    },
    [defaultSeconds],
  );

  return { remaining, running: remaining > 0, start };
}
