import { expect, request as playwrightRequest, test } from '@playwright/test';
import { expectAccessible, expectToast, login, registerViaApi } from './support.ts';

/**
 * 我的信息 → API 令牌 (issue 18 part 7): a researcher creates a token, copies its secret from the
 * one-time dialog, a program reads the catalogue and a page's text with it, and after revoking it in
 * the same place the program is refused at once. The API's page for researchers is in the footer.
 */
test('a token created in 我的信息 reads page text through /api/v1 and stops working when revoked', async ({
  page,
  request,
  baseURL,
}) => {
  const user = await registerViaApi(request);
  await login(page, user.loginName, user.password);
  await expect(page).toHaveURL(/\/($|\?)/);

  await page.goto('/PersonalPage/Infor');
  const section = page.getByRole('region', { name: 'API 令牌' });
  await expect(section.getByText('还没有 API 令牌。')).toBeVisible();
  await expectAccessible(page);

  // A bad name is refused with its message and creates nothing.
  await section.getByLabel('令牌名称').fill('<b>');
  await section.getByRole('button', { name: '新建令牌' }).click();
  await expect(section.getByRole('alert')).toHaveText(
    '名称不能包含控制字符、不可见的文字方向字符或尖括号 < >',
  );

  await section.getByLabel('令牌名称').fill('论文数据');
  await section.getByRole('button', { name: '新建令牌' }).click();
  const dialog = page.getByRole('dialog', { name: '新的 API 令牌' });
  await expect(dialog.getByText('它只显示这一次')).toBeVisible();
  const secret = await dialog.getByLabel('令牌').inputValue();
  expect(secret).toMatch(/^gj_[A-Za-z0-9_-]{43}$/);
  await page.screenshot({ path: 'test-results/api-tokens-created.png', fullPage: true });
  await dialog.getByRole('button', { name: '我已保存' }).click();

  const list = section.getByRole('list', { name: '我的 API 令牌' });
  await expect(list.getByText('论文数据')).toBeVisible();
  await expect(list.getByText(`${secret.slice(0, 8)}…`)).toBeVisible();
  await expect(list.getByText('尚未使用')).toBeVisible();
  // The secret is not on the page any more.
  await expect(page.locator('body')).not.toContainText(secret);

  // A program without cookies, with the token in the header.
  const program = await playwrightRequest.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: `Bearer ${secret}` },
  });
  const who = await program.get('/api/v1/whoami');
  expect(who.status()).toBe(200);
  expect(who.headers()['access-control-allow-origin']).toBe('*');
  expect(await who.json()).toMatchObject({ user: user.loginName, token: { name: '论文数据' } });
  const books = (await (await program.get(`/api/v1/books?q=${encodeURIComponent('論語')}`)).json()) as {
    items: Array<{ id: number; title: string }>;
  };
  const book = books.items[0]!;
  const detail = (await (await program.get(`/api/v1/books/${book.id}`)).json()) as {
    volumes: Array<{ pagesUrl: string }>;
  };
  const pages = (await (await program.get(detail.volumes[0]!.pagesUrl)).json()) as {
    pages: Array<{ textUrl: string }>;
  };
  const text = await program.get(pages.pages[0]!.textUrl);
  expect(text.status()).toBe(200);
  const body = (await text.json()) as { text: string; columns: Array<{ characters: unknown[] }> };
  expect(body.text.length).toBeGreaterThan(0);
  expect(body.columns[0]!.characters.length).toBeGreaterThan(0);

  // The list shows the use.
  await page.reload();
  await expect(list.getByText(/最近使用 \d{4}-\d{2}-\d{2} \d{2}:\d{2}/)).toBeVisible();

  await list.getByRole('button', { name: '撤销' }).click();
  await page
    .locator('.ant-popconfirm')
    .getByRole('button', { name: /撤\s*销/ })
    .click();
  await expectToast(page, '令牌「论文数据」已撤销');
  await expect(section.getByText('还没有 API 令牌。')).toBeVisible();
  const refused = await program.get('/api/v1/whoami');
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toMatchObject({ code: 'API_TOKEN_INVALID' });
  await program.dispose();

  // The researchers' page, from the footer.
  await page.getByRole('contentinfo').getByRole('link', { name: '数据接口（API）' }).click();
  await expect(page.getByRole('heading', { name: '数据接口（API）', level: 1 })).toBeVisible();
  await expect(page.getByText(/每个令牌每分钟最多 \d+ 次请求/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'OpenAPI 文档（v1 分组）' })).toHaveAttribute(
    'href',
    '/api/docs#/v1',
  );
  await expectAccessible(page);
});
