/** Helpers of the accounts HTTP tests: fresh phones and users, logins from an address, the secrets check. */
import { expect } from 'vitest';
import { GOOD_PASSWORD, type HttpHarness } from './http.ts';

let phoneSeq = 0;
/** A phone number no earlier call in this test file gave. */
export const nextPhone = () => `139${String(10_000_000 + phoneSeq++).padStart(8, '0')}`;

let userSeq = 0;

/** Registers a fresh user so each test stands alone. */
export async function newUser(
  h: HttpHarness,
  prefix = 'user',
): Promise<{ loginName: string; phone: string }> {
  const loginName = `${prefix}${userSeq++}`;
  const phone = nextPhone();
  const response = await h.register({ loginName, phone });
  expect(response.statusCode, response.body).toBe(200);
  return { loginName, phone };
}

/** A user made directly (no SMS code, which the per-address limit would soon refuse). */
export async function directUser(
  h: HttpHarness,
  prefix = 'direct',
): Promise<{ loginName: string; phone: string }> {
  const loginName = `${prefix}${userSeq++}`;
  const phone = nextPhone();
  await h.context.services.auth.upsertAccount({
    loginName,
    password: GOOD_PASSWORD,
    roles: ['reader'],
    phone,
  });
  return { loginName, phone };
}

/** A login from a given client address. */
export async function loginFrom(h: HttpHarness, loginName: string, password: string, remoteAddress: string) {
  return h.request({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress,
    body: { loginName, password, ...(await h.captcha()) },
  });
}

/**
 * Checks that no response the harness gave (bodies and headers) held a password hash or an SMS code
 * that was sent. Run it last in a file, so it sees what the other tests were answered.
 */
export async function expectNoSecretsSent(h: HttpHarness): Promise<void> {
  // Codes of this check's own, sent over HTTP from an address of its own (the per-address limit is
  // the other tests'), besides those the other tests had sent.
  for (const phone of ['13500000871', '13500000872']) {
    const sent = await h.request({
      method: 'POST',
      url: '/api/sms/send',
      body: { phone, purpose: 'register', ...(await h.captcha()) },
      remoteAddress: '198.51.100.77',
    });
    expect(sent.statusCode).toBe(200);
  }
  const outbox = await h.context.repos.sms.listOutbox(undefined, 500);
  const codes = outbox.map((m) => /验证码为 (\d{6})/.exec(m.text)?.[1]).filter((c): c is string => !!c);
  expect(codes.length).toBeGreaterThanOrEqual(2);
  const all = h.bodies.join('\n');
  expect(all).not.toMatch(/\$argon2/);
  expect(all).not.toMatch(/password_?hash|code_?hash/i);
  for (const code of codes) expect(all).not.toContain(`"${code}"`);
}
