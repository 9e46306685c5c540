import { createHmac, randomInt } from 'node:crypto';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page, type Response, type Route } from '@playwright/test';
import { E2E_DATA_DIR, E2E_SECRET } from '../playwright.config.ts';

export { ALONE } from '../playwright.config.ts';

/**
 * The browser tests cannot read a captcha image, so they set the answer of the captcha the page shows
 * directly in the test database (the server stores only a keyed hash of it), and read SMS codes from
 * the development outbox. Nothing in the product is weakened for tests.
 */
const db = () => new BetterSqlite3(path.join(E2E_DATA_DIR, 'library.sqlite'), { timeout: 5000 });

export const CAPTCHA_ANSWER = 'e2et';

const trackers = new WeakMap<Page, { latest(): Promise<string> }>();

/**
 * Tracks the captcha ids a page loads; the newest is the one on screen. Call it before the page
 * loads its first captcha (a beforeEach does); later calls return the same tracker.
 */
export function trackCaptchas(page: Page): { latest(): Promise<string> } {
  const existing = trackers.get(page);
  if (existing) return existing;
  const ids: string[] = [];
  // Read each captcha id on its way to the page; a response listener can lose bodies when the page navigates.
  void page.route('**/api/captcha', async (route) => {
    const response = await route.fetch();
    // A refused request (a rate limit) shows no captcha: only served ones count.
    if (response.ok()) ids.push(((await response.json()) as { captchaId: string }).captchaId);
    await route.fulfill({ response });
  });
  const tracker = {
    async latest() {
      await expect.poll(() => ids.length).toBeGreaterThan(0);
      return ids[ids.length - 1]!;
    },
  };
  trackers.set(page, tracker);
  return tracker;
}

/** Makes a captcha answerable with CAPTCHA_ANSWER. */
function answerCaptcha(id: string): void {
  const hash = createHmac('sha256', E2E_SECRET).update(`captcha:${id}:${CAPTCHA_ANSWER}`).digest('hex');
  const conn = db();
  conn.prepare('update captchas set answer_hash = ? where id = ?').run(hash, id);
  conn.close();
}

/** Makes the captcha on screen answerable with CAPTCHA_ANSWER and returns that answer. */
export async function solveCaptcha(captchas: { latest(): Promise<string> }): Promise<string> {
  answerCaptcha(await captchas.latest());
  return CAPTCHA_ANSWER;
}

/** The newest SMS code sent to a phone, from the development outbox. */
export async function latestSmsCode(phone: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(() => {
      const conn = db();
      const row = conn
        .prepare('select text from sms_outbox where phone = ? order by id desc limit 1')
        .get(phone) as { text: string } | undefined;
      conn.close();
      code = /验证码为 (\d{6})/.exec(row?.text ?? '')?.[1];
      return code;
    })
    .toBeTruthy();
  return code!;
}

let seq = Date.now() % 100_000_000;
/** A phone number and login name no other test uses. */
export function uniqueUser(): { loginName: string; phone: string } {
  seq++;
  return { loginName: `u${seq}`, phone: `135${String(seq).padStart(8, '0')}` };
}

/**
 * Waits until no finite animation runs: what is judged is what stays on screen. Also before the first
 * click in a dialog just opened: a click during antd's zoom-in was lost twice in loaded CI runs.
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ).then(() => undefined),
  );
}

async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * Runs axe-core on the page and fails on WCAG 2.1 A/AA violations. A dialog or menu still fading in has
 * colours between its own and the page's, so it waits for animations first; a toast may start fading out
 * on its timer while axe reads it, so a finding in a toast is judged again once the toasts are gone.
 */
export async function expectAccessible(page: Page): Promise<void> {
  await animationsDone(page);
  let summary = await axeViolations(page);
  if (summary.some((line) => line.includes('.ant-message'))) {
    await expect(page.locator('.ant-message-notice')).toHaveCount(0);
    await animationsDone(page);
    summary = await axeViolations(page);
  }
  expect(summary).toEqual([]);
}

/** Waits for a toast (antd message) with this text; an older toast may still be fading out beside it. */
/**
 * The page has settled: no resource (image, tile, script, API answer) has finished loading for half a
 * second, and its fonts are loaded. Used before a screenshot and before asserting that nothing more
 * arrives, instead of a fixed wait. (Playwright's `networkidle` load state is reached once per load and
 * answers at once afterwards, so it does not see the tiles a later page turn asks for.)
 */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let quiet: ReturnType<typeof setTimeout>;
        const done = () => {
          observer.disconnect();
          clearTimeout(cap);
          resolve();
        };
        const observer = new PerformanceObserver(() => {
          clearTimeout(quiet);
          quiet = setTimeout(done, 500);
        });
        observer.observe({ type: 'resource' });
        quiet = setTimeout(done, 500);
        // A page that never stops loading (a poll) is taken as settled after 10 s.
        const cap = setTimeout(done, 10_000);
      }),
  );
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

export async function expectToast(page: Page, text: string | RegExp): Promise<void> {
  await expect(
    page.locator('.ant-message-notice:not(.ant-message-fade-leave)', { hasText: text }).first(),
  ).toBeVisible();
}

/** Logs in through the login page (solving its captcha). */
export async function login(page: Page, loginName: string, password: string): Promise<Response> {
  const captchas = trackCaptchas(page);
  if (!page.url().endsWith('/Login')) await page.goto('/Login');
  // After a client-side redirect the previous page may still be on screen for a moment.
  await expect(page.getByRole('heading', { name: '用户登录' })).toBeVisible();
  await page.getByLabel('用户名').fill(loginName);
  await page.getByLabel('密码', { exact: true }).fill(password);
  const captchaId = await captchas.latest();
  await page.getByLabel('验证码').fill(await solveCaptcha(captchas));
  // The captcha the form sends is answered too, on its way: the page may have loaded another one after
  // the newest this tracker saw (a refused captcha once failed a test in a loaded CI run).
  const answerSent = async (route: Route) => {
    const sent = route.request().postDataJSON() as { captchaId?: unknown } | null;
    if (typeof sent?.captchaId === 'string') answerCaptcha(sent.captchaId);
    await route.continue();
  };
  await page.route('**/api/auth/login', answerSent);
  const answer = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/auth/login',
    { timeout: 30_000 },
  );
  await page.getByRole('button', { name: /登\s*录/ }).click();
  const response = await answer.finally(() => page.unroute('**/api/auth/login', answerSent));
  // A refused captcha is the harness's fault, never what a test means: say so instead of a later timeout.
  const body = response.ok() ? null : ((await response.json().catch(() => null)) as { code?: string } | null);
  if (body?.code?.startsWith('CAPTCHA_')) {
    throw new Error(`login: the captcha answered for ${captchaId} was refused (${JSON.stringify(body)})`);
  }
  return response;
}

/** Runs a statement on the test database (set-up that has no UI, e.g. a privilege). */
export function dbRun(statement: string, ...params: unknown[]): void {
  const conn = db();
  conn.prepare(statement).run(...params);
  conn.close();
}

export function dbGet<T>(query: string, ...params: unknown[]): T | undefined {
  const conn = db();
  const row = conn.prepare(query).get(...params) as T | undefined;
  conn.close();
  return row;
}

/** Logs an API request context in (for set-up through the API), solving the captcha as above. */
export async function apiLogin(
  request: APIRequestContext,
  loginName: string,
  password: string,
): Promise<void> {
  const captcha = (await (await request.get('/api/captcha')).json()) as { captchaId: string };
  const hash = createHmac('sha256', E2E_SECRET)
    .update(`captcha:${captcha.captchaId}:${CAPTCHA_ANSWER}`)
    .digest('hex');
  dbRun('update captchas set answer_hash = ? where id = ?', hash, captcha.captchaId);
  const response = await request.post('/api/auth/login', {
    data: { loginName, password, captchaId: captcha.captchaId, captchaCode: CAPTCHA_ANSWER },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/** Solves a fresh captcha for an API call (as apiLogin does). */
async function apiCaptcha(request: APIRequestContext): Promise<{ captchaId: string; captchaCode: string }> {
  const captcha = (await (await request.get('/api/captcha')).json()) as { captchaId: string };
  const hash = createHmac('sha256', E2E_SECRET)
    .update(`captcha:${captcha.captchaId}:${CAPTCHA_ANSWER}`)
    .digest('hex');
  dbRun('update captchas set answer_hash = ? where id = ?', hash, captcha.captchaId);
  return { captchaId: captcha.captchaId, captchaCode: CAPTCHA_ANSWER };
}

/** Registers a new reader through the API (set-up for tests whose subject is not registration). */
export async function registerViaApi(
  request: APIRequestContext,
  password = 'Reader#2026',
): Promise<{ loginName: string; phone: string; password: string }> {
  const user = uniqueUser();
  // Each set-up registration asks from an address of its own (TRUST_PROXY is loopback in
  // playwright.config.ts): the server allows 20 codes an hour per address, and the whole suite's
  // registrations from 127.0.0.1 had run into that, depending on the order of the tests.
  const sent = await request.post('/api/sms/send', {
    data: { phone: user.phone, purpose: 'register', ...(await apiCaptcha(request)) },
    headers: { 'x-forwarded-for': `198.18.${randomInt(256)}.${1 + randomInt(254)}` },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  const registered = await request.post('/api/auth/register', {
    data: {
      post: '国家图书馆',
      realName: '李读者',
      idCard: '11010519491231002X',
      loginPassword: password,
      email: 'reader@example.com',
      address: '北京市',
      loginName: user.loginName,
      phone: user.phone,
      phoneCode: await latestSmsCode(user.phone),
    },
  });
  expect(registered.ok(), await registered.text()).toBe(true);
  return { ...user, password };
}

/** Demo accounts created by the server on an empty database (README). */
export const DEMO = {
  reader: { loginName: 'reader', password: 'Shuyuan#2026' },
  catalogAdmin: { loginName: 'catalogadmin', password: 'Bianmu#2026' },
  reviewer: { loginName: 'reviewer', password: 'Shenhe#2026' },
} as const;

/** Headers that make the server see the request as coming from the reading room (see playwright.config.ts). */
export const READING_ROOM_HEADERS = { 'x-forwarded-for': '10.77.0.9' };
