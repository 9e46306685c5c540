/** The time source of services, replaceable in tests (expiry, lockouts, rate windows). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export const addSeconds = (date: Date, seconds: number): Date => new Date(date.getTime() + seconds * 1000);
