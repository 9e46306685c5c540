import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { MSG } from '@guji/shared';
import { ALONE, animationsDone, dbGet, dbRun, registerViaApi, settled, solveCaptcha } from './support.ts';

/**
 * IIIF Authorization (issue 18) in an outside viewer: Mirador 4 (npm `mirador`, its packaged build) on a
 * second origin opens a restricted book's manifest, shows its login bar, the reader logs in through the
 * site's own /Login in the viewer's login window, and Mirador draws the pages with tiles that succeed;
 * a reader who may not read the book sees the service's refusal (the spec's 温馨提示：请到阅览室浏览！).
 */
const port = Number(process.env.E2E_PORT ?? 3217);
const server = `http://127.0.0.1:${port}`;
/** The viewer's origin, listed in IIIF_VIEWER_ORIGINS by playwright.config.ts. */
const viewerPort = port + 1;
const viewer = `http://127.0.0.1:${viewerPort}`;
const MIRADOR = path.join(import.meta.dirname, '../node_modules/mirador/dist/mirador.min.js');

let site: http.Server;

/**
 * What a site embedding Mirador 4.0.0 adds for a restricted book's text and search (docs/api.md): Mirador
 * sends its IIIF access token only with info.json requests, so a request preprocessor sends it with the
 * library's other requests too; and the text layer's `supplementing` annotations are listed beside the
 * motivations Mirador shows by default.
 */
const MIRADOR_CONFIG = (library: string) => `const library = ${JSON.stringify(library)};
const tokenOf = () => {
  const tokens = window.miradorViewer ? window.miradorViewer.store.getState().accessTokens || {} : {};
  const found = Object.values(tokens).find((t) => t && t.json && t.json.accessToken);
  return found && found.json.accessToken;
};
const textAndSearch = {
  annotations: {
    filteredMotivations: ['oa:commenting', 'oa:tagging', 'sc:painting', 'commenting', 'tagging', 'supplementing'],
  },
  requests: {
    preprocessors: [(url, options) => {
      const token = url.startsWith(library + '/iiif/') && tokenOf();
      if (!token) return undefined;
      return { ...options, headers: { ...options.headers, Authorization: 'Bearer ' + token } };
    }],
  },
};`;

test.beforeAll(async () => {
  const manifestPage = (manifest: string) => `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>Mirador 4</title>
<style>html,body{margin:0;height:100%}#mirador{position:absolute;inset:0}</style></head>
<body><div id="mirador"></div><script src="/mirador.min.js"></script>
<script>${MIRADOR_CONFIG(server)}
window.miradorViewer = Mirador.viewer({ id: 'mirador', language: 'zh-CN',
  windows: [{ manifestId: ${JSON.stringify(manifest)} }],
  workspaceControlPanel: { enabled: false }, ...textAndSearch });</script></body></html>`;
  site = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', viewer);
    if (url.pathname === '/mirador.min.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' });
      fs.createReadStream(MIRADOR).pipe(response);
    } else if (url.pathname === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(manifestPage(url.searchParams.get('manifest') ?? ''));
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => site.listen(viewerPort, '127.0.0.1', resolve));
});

test.afterAll(async () => {
  await new Promise((resolve) => site.close(resolve));
});

/** The first volume of the demo's 孟子 (visible, published, not open for online reading). */
function restrictedVolume(): { bookId: number; volumeId: number } {
  return dbGet<{ bookId: number; volumeId: number }>(
    `select b.id as bookId, v.id as volumeId from books b join volumes v on v.book_id = b.id
     where b.title = '孟子' order by v.id limit 1`,
  )!;
}

/** Captcha ids of every page of the context (the login window is opened by Mirador). */
function trackContextCaptchas(context: BrowserContext) {
  const ids: string[] = [];
  void context.route('**/api/captcha', async (route) => {
    const response = await route.fetch();
    // A refused request (a rate limit) shows no captcha: only served ones count.
    if (response.ok()) ids.push(((await response.json()) as { captchaId: string }).captchaId);
    await route.fulfill({ response });
  });
  return {
    latest: async () => {
      await expect.poll(() => ids.length).toBeGreaterThan(0);
      return ids.at(-1)!;
    },
  };
}

/** Opens Mirador on the restricted manifest and logs in through its login window. */
async function openAndLogIn(page: Page, user: { loginName: string; password: string }) {
  const captchas = trackContextCaptchas(page.context());
  const { volumeId } = restrictedVolume();
  const manifest = `${server}/iiif/presentation/volumes/${volumeId}/manifest.json`;
  const tiles: number[] = [];
  page.on('response', (response) => {
    if (/\/iiif\/3\/\d+\/[^/]+\/[^/]+\/0\/default\.jpg$/.test(response.url())) tiles.push(response.status());
  });
  if (process.env.IIIF_DEBUG) {
    page.on('response', (r) => console.log('RESP', r.status(), r.request().method(), r.url()));
    page.on('requestfailed', (r) => console.log('FAIL', r.url(), r.failure()?.errorText));
    page.on('console', (m) => console.log('CONSOLE', m.text()));
  }
  await page.goto(`${viewer}/?manifest=${encodeURIComponent(manifest)}`);
  // The restricted image service answers 401 with its login service: Mirador shows its login bar.
  await page.getByRole('button', { name: '登录古籍数字图书馆 继续' }).click({ timeout: 30_000 });
  await expect(page.getByText('本书需登录后阅读')).toBeVisible();
  await expect(page.getByText(MSG.loginRequiredNotice)).toBeVisible();
  await page.screenshot({ path: 'test-results/iiif-auth-login-bar.png' });
  // The bar's login button opens the login window. In a loaded CI run one click, made while the bar was
  // still unfolding, opened nothing: wait for the bar's animation, and click again if no window came.
  await animationsDone(page);
  let popup: Page | undefined;
  await expect(async () => {
    const opened = page.context().waitForEvent('page', { timeout: 10_000 });
    await page.getByRole('button', { name: '登录', exact: true }).click();
    popup = await opened;
  }).toPass({ timeout: 60_000 });
  if (!popup) throw new Error('Mirador opened no login window');
  // The site's own login page, in the viewer's login window.
  await expect(popup.getByRole('heading', { name: '用户登录' })).toBeVisible({ timeout: 30_000 });
  expect(popup.url()).toContain(`${server}/Login?redirect=`);
  await popup.getByLabel('用户名').fill(user.loginName);
  await popup.getByLabel('密码', { exact: true }).fill(user.password);
  await popup.getByLabel('验证码').fill(await solveCaptcha(captchas));
  await popup.screenshot({ path: 'test-results/iiif-auth-login-window.png' });
  await popup.getByRole('button', { name: /登\s*录/ }).click();
  return { tiles, popup };
}

test('Mirador 4 opens a restricted book after the reader logs in through the login window', async ({
  page,
  request,
}) => {
  const reader = await registerViaApi(request);
  const { bookId } = restrictedVolume();
  const user = dbGet<{ id: number }>('select id from users where login_name = ?', reader.loginName)!;
  const now = Date.now();
  dbRun(
    'insert into book_privileges (user_id, book_id, starts_at, expires_at, created_at) values (?, ?, ?, ?, ?)',
    user.id,
    bookId,
    new Date(now - 60_000).toISOString(),
    new Date(now + 86_400_000).toISOString(),
    new Date(now).toISOString(),
  );
  const { tiles, popup } = await openAndLogIn(page, reader);
  // Once signed in, the login service closes the window; Mirador then asks the token service.
  if (!popup.isClosed()) await popup.waitForEvent('close', { timeout: 30_000 });
  // Mirador has the token (its bar now offers the logout service) and asks for info.json with it.
  await expect(page.getByRole('button', { name: '退出登录' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('本书需登录后阅读')).toBeHidden();
  // Mirador 4.0.0 keeps the tile source it added for the page on screen before the login (it does not
  // re-add one whose info.json changed): turning the page draws the next page and, back, the first.
  tiles.length = 0;
  await page.getByRole('button', { name: '下一页' }).click();
  await expect.poll(() => tiles.filter((s) => s === 200).length, { timeout: 30_000 }).toBeGreaterThan(0);
  await page.getByRole('button', { name: '上一页' }).click();
  await expect(page.getByText('1 / 20')).toBeVisible();
  // Every tile asked for has come: none was refused.
  await settled(page);
  expect(tiles.filter((s) => s !== 200 && s !== 304)).toEqual([]);
  await page.screenshot({ path: 'test-results/iiif-auth-drawn.png' });
});

test('Mirador 4 shows the refusal to a reader who may not read the book', async ({ page, request }) => {
  const reader = await registerViaApi(request);
  const { tiles, popup } = await openAndLogIn(page, reader);
  // Signed in, the login window says why the book stays closed (the spec's refusal) and closes on request.
  await expect(popup.getByRole('alert')).toHaveText(MSG.readingRoomOnly, { timeout: 30_000 });
  await popup.screenshot({ path: 'test-results/iiif-auth-refused-window.png' });
  const closed = popup.waitForEvent('close');
  // The window closes itself on the click, sometimes before the click action has finished.
  await popup
    .getByRole('button', { name: '关闭窗口' })
    .click()
    .catch((error: unknown) => {
      if (!popup.isClosed()) throw error;
    });
  await closed;
  // The token service refuses too: Mirador stays at its login bar and draws nothing.
  await settled(page);
  expect(await page.getByText('退出登录').count()).toBe(0);
  await page.screenshot({ path: 'test-results/iiif-auth-refused.png' });
  expect(tiles.filter((s) => s === 200)).toEqual([]);
});

// Alone: beside other tests Mirador showed 发生错误 after the search in 2 of 4 runs (docs/architecture.md, Tests).
test(
  'Mirador 4 shows and searches a restricted book’s text with the reader’s IIIF token, in the reading room',
  { tag: ALONE },
  async ({ page, request }) => {
    // The reading room (10.77.0.0/16 in playwright.config.ts), where in-book search is open to readers.
    await page.context().setExtraHTTPHeaders({ 'x-forwarded-for': '10.77.0.9' });
    const reader = await registerViaApi(request);
    const columns: string[] = [];
    page.on('response', async (response) => {
      if (!/\/iiif\/presentation\/pages\/\d+\/text\.json$/.test(response.url())) return;
      if (response.status() === 200) {
        const layer = (await response.json()) as { items: Array<{ body: { value: string } }> };
        columns.push(...layer.items.map((a) => a.body.value));
      }
    });
    const { popup } = await openAndLogIn(page, reader);
    if (!popup.isClosed()) await popup.waitForEvent('close', { timeout: 30_000 });
    await expect(page.getByRole('button', { name: '退出登录' })).toBeVisible({ timeout: 30_000 });
    // Mirador 4.0.0 fetched the first page's text before the login (401) and keeps that answer: as with its
    // tiles, the next page is asked for with the token.
    await page.getByRole('button', { name: '下一页' }).click();
    await expect.poll(() => columns.length, { timeout: 30_000 }).toBeGreaterThan(0);
    // The page's text layer, fetched with the token: its columns as Mirador's annotations.
    await page.getByRole('button', { name: '切换边栏开关' }).click();
    await page.getByRole('tab', { name: '标注' }).click();
    await expect(page.getByText(/^显示 [1-9]\d* ?项标注$/)).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('menuitem').filter({ hasText: columns[0]! }).first()).toBeVisible();
    await page.screenshot({ path: 'test-results/iiif-auth-text.png' });
    // Content Search 1.0 in Mirador's search panel: hits listed, each with its context.
    await page.getByRole('tab', { name: '搜索' }).click();
    const query = page.getByRole('combobox', { name: '搜索关键字' }).or(page.getByLabel('搜索关键字'));
    await query.first().fill('梁惠王');
    await page.getByRole('button', { name: '提交搜索' }).click();
    const hits = page.getByRole('listitem').filter({ hasText: '梁惠王' });
    await expect(hits.first()).toBeVisible({ timeout: 30_000 });
    await page.screenshot({ path: 'test-results/iiif-auth-search.png' });
  },
);
