import { describe, expect, it } from 'vitest';
import { clientKeyOf, LOCKOUT, slowDownMs } from './auth.service.ts';

describe('login throttle keys and slow-down', () => {
  it('counts an IPv4 client by its address and an IPv6 client by its /64', () => {
    expect(clientKeyOf('203.0.113.9')).toBe('203.0.113.9');
    expect(clientKeyOf('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientKeyOf('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientKeyOf('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(clientKeyOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKeyOf('::1')).toBe('0:0:0:0::/64');
    expect(clientKeyOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKeyOf(null)).toBe('-');
  });

  it('holds attempts back more as failures from every address grow, never beyond the cap', () => {
    expect(slowDownMs(0)).toBe(0);
    expect(slowDownMs(LOCKOUT.slowAfter - 1)).toBe(0);
    expect(slowDownMs(LOCKOUT.slowAfter)).toBe(500);
    expect(slowDownMs(LOCKOUT.slowAfter + 1)).toBe(1000);
    expect(slowDownMs(10_000)).toBe(LOCKOUT.maxDelayMs);
  });
});
