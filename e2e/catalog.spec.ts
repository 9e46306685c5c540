import sharp from 'sharp';
import { expect, request as playwrightRequest, test, type Page } from '@playwright/test';
import { MSG } from '@guji/shared';
import { makeZip } from '../apps/server/test/zip.ts';
import {
  apiLogin,
  dbGet,
  dbRun,
  DEMO,
  expectAccessible,
  expectToast,
  login,
  READING_ROOM_HEADERS,
  trackCaptchas,
} from './support.ts';

const EXTRA_BOOKS = 12;
/** The demo library: six typeset classics and the scanned 史記 (apps/server/src/demo/demo.ts). */
const DEMO_BOOKS = 7;

/** Adds 12 small books through the import API, plus a book without volumes, so pagers have pages. */
test.beforeAll(async () => {
  if (dbGet('select id from books where source_key = ?', 'e2e:extra-1')) return;
  const api = await playwrightRequest.newContext({ baseURL: test.info().project.use.baseURL });
  await apiLogin(api, DEMO.catalogAdmin.loginName, DEMO.catalogAdmin.password);
  const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#e9dcc0' } })
    .png()
    .toBuffer();
  const books = Array.from({ length: EXTRA_BOOKS }, (_, i) => ({
    sourceKey: `e2e:extra-${i + 1}`,
    title: `測試叢書第${i + 1}種`,
    classCode: 'SHI',
    isOpen: true,
    volumes: [{ name: '卷一', images: `b${i + 1}` }],
  }));
  const files: Record<string, Buffer | string> = { 'metadata.json': JSON.stringify({ books }) };
  books.forEach((_, i) => (files[`b${i + 1}/1.png`] = png));
  const response = await api.post('/api/admin/import', {
    multipart: { file: { name: 'extra.zip', mimeType: 'application/zip', buffer: makeZip(files) } },
  });
  expect(response.ok(), await response.text()).toBe(true);
  const now = new Date().toISOString();
  dbRun(
    "insert or ignore into books (title, is_visible, is_open, audit_status, view_count, created_at, updated_at, source_key) values ('無卷之書', 1, 1, '2', 0, ?, ?, 'e2e:empty')",
    now,
    now,
  );
  await api.dispose();
});

test.beforeEach(({ page }) => {
  trackCaptchas(page);
});

const bookId = (title: string) => dbGet<{ id: number }>('select id from books where title = ?', title)!.id;
const openBook = (page: Page, title: string) => page.goto(`/SearchPage/${bookId(title)}`);

test('home: search banner, introduction dialog, hot grid of 8 growing by 8, tip that hides after 10 s', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByRole('status').filter({ hasText: '提示：点击书名可查看古籍详情' })).toBeVisible();
  await expect(page.getByRole('link', { name: '高级检索' })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('button', { name: '查看更多馆藏介绍' }).click();
  const dialog = page.getByRole('dialog', { name: '馆藏介绍' });
  await expect(dialog).toContainText('演示书库');
  await dialog.getByRole('button', { name: '关闭' }).first().click();
  await expect(dialog).toBeHidden();

  const cards = page.locator('.home-hot').getByRole('link', { name: /封面/ });
  await expect(cards).toHaveCount(8);
  await page.getByRole('button', { name: '查看更多热门古籍' }).click();
  await expect(cards).toHaveCount(16);
  await page.getByRole('button', { name: '查看更多热门古籍' }).click();
  await expect(cards).toHaveCount(DEMO_BOOKS + EXTRA_BOOKS);
  await expect(page.getByRole('button', { name: '查看更多热门古籍' })).toHaveCount(0);
  await page.screenshot({ path: 'test-results/tour-1-home.png', fullPage: true });

  await expect(page.getByRole('status').filter({ hasText: '提示：点击书名可查看古籍详情' })).toBeHidden({
    timeout: 12_000,
  });

  await page.getByRole('searchbox', { name: '书名' }).fill('論語');
  await page.getByRole('button', { name: '检索' }).click();
  await expect(page).toHaveURL(/\/SearchPage\?.*title=%E8%AB%96%E8%AA%9E/);
  await expect(page.getByRole('heading', { name: '論語', level: 3 })).toBeVisible();
});

test('search: classification filter, 6 per page, total, pager, no results, tip, URL kept on reload', async ({
  page,
}) => {
  await page.goto('/SearchPage');
  await expect(page.getByText('正在检索…')).toBeVisible();
  await expect(page.getByText('正在检索…')).toBeHidden({ timeout: 3000 });
  const total = DEMO_BOOKS + EXTRA_BOOKS + 1;
  await expect(page.getByText(`共 ${total} 条`)).toBeVisible();
  await expect(page.getByRole('heading', { level: 3 })).toHaveCount(6);
  await expectAccessible(page);

  await page.getByRole('listitem', { name: '下一页' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByRole('heading', { level: 3 })).toHaveCount(6);
  await page.reload();
  await expect(page.getByText(`共 ${total} 条`)).toBeVisible();
  await expect(page.getByRole('listitem', { name: '2' })).toHaveClass(/active/);

  await page.getByRole('tree', { name: '古籍分类' }).getByText('經部').click();
  await expect(page).toHaveURL(/classCode=JING/);
  await expect(page.getByText('共 5 条')).toBeVisible();
  await expect(page.getByRole('heading', { level: 3 })).toHaveCount(5);
  await expect(page.getByText('阅览室').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/tour-2-search.png', fullPage: true });

  await page.getByRole('searchbox', { name: '书名' }).fill('不存在的書名');
  await page.getByRole('button', { name: '检索' }).click();
  await expect(page.getByText('未找到相关古籍')).toBeVisible();
  await page.goBack();
  await expect(page.getByText('共 5 条')).toBeVisible();
});

test('book page: header panel with 暂无 placeholders, volumes, directory, IIIF link, empty volume list', async ({
  page,
}) => {
  await openBook(page, '論語');
  await expect(page.getByRole('heading', { name: '論語', level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: '当前位置' })).toContainText('首页');
  await expect(page.getByText('DEMO-經-001')).toBeVisible();
  await expect(page.getByRole('link', { name: 'IIIF 清单' })).toHaveAttribute('href', /collection\.json$/);
  // The IIIF drag-and-drop convention: the logo links to the manifest with ?manifest= for other viewers.
  await expect(page.getByRole('link', { name: /IIIF 拖放图标/ })).toHaveAttribute(
    'href',
    /collection\.json\?manifest=https?%3A%2F%2F.+collection\.json$/,
  );
  await expect(page.getByRole('button', { name: /复制清单地址/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /卷一/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('tree', { name: '卷一目录' })).toContainText('學而第一');
  await page.getByRole('button', { name: /卷二/ }).click();
  await expect(page.getByRole('tree', { name: '卷二目录' })).toContainText('先進第十一');
  // The selected volume is in the address: a reload keeps it.
  await expect(page).toHaveURL(/fascicleId=\d+/);
  await page.reload();
  await expect(page.getByRole('button', { name: /卷二/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('tree', { name: '卷二目录' })).toContainText('先進第十一');
  await expectAccessible(page);
  await page.screenshot({ path: 'test-results/tour-3-book.png', fullPage: true });

  await openBook(page, '測試叢書第1種');
  await expect(page.getByText('暂无').first()).toBeVisible();
  expect(await page.getByText('暂无', { exact: true }).count()).toBeGreaterThanOrEqual(3);

  await openBook(page, '無卷之書');
  await expect(page.getByText(MSG.noData)).toBeVisible();
});

test('access from the tree: visitor is sent to login after the notice', async ({ page }) => {
  await openBook(page, '論語');
  await page.getByRole('tree', { name: '卷一目录' }).getByText('學而第一').click();
  await expectToast(page, MSG.loginRequiredNotice);
  await expect(page).toHaveURL(/\/Login/, { timeout: 3000 });
});

test('access: a reader opens an open book, but a reading-room book only in the reading room or with a privilege', async ({
  page,
  browser,
}) => {
  await login(page, DEMO.reader.loginName, DEMO.reader.password);
  await expect(page).toHaveURL(/\/($|\?)/);

  await openBook(page, '孟子');
  await page.getByRole('tree', { name: '卷一目录' }).getByRole('treeitem').first().click();
  await expectToast(page, MSG.readingRoomOnly);
  await expect(page).toHaveURL(/\/SearchPage\//);

  // The reader itself refuses too, and goes home.
  await page.goto(`/Book?catalogId=${bookId('孟子')}`);
  await expectToast(page, MSG.noPermission);
  await expect(page).toHaveURL(/\/$/, { timeout: 3000 });

  // In the reading room the same reader may read it.
  const roomContext = await browser.newContext({
    extraHTTPHeaders: READING_ROOM_HEADERS,
    storageState: await page.context().storageState(),
  });
  const room = await roomContext.newPage();
  await room.goto(`/SearchPage/${bookId('孟子')}`);
  await room.getByRole('tree', { name: '卷一目录' }).getByRole('treeitem').first().click();
  await expect(room).toHaveURL(/\/Book\?/);
  await expect(room.getByRole('region', { name: /第 1 页图像/ })).toHaveAttribute('data-drawn', 'true');
  await roomContext.close();

  // With an approved privilege it opens outside the reading room.
  const reader = dbGet<{ id: number }>('select id from users where login_name = ?', DEMO.reader.loginName)!;
  const now = Date.now();
  dbRun(
    'insert into book_privileges (user_id, book_id, starts_at, expires_at, created_at) values (?, ?, ?, ?, ?)',
    reader.id,
    bookId('中庸'),
    new Date(now - 60_000).toISOString(),
    new Date(now + 86_400_000).toISOString(),
    new Date(now).toISOString(),
  );
  await openBook(page, '中庸');
  await page.getByRole('tree', { name: '卷一目录' }).getByRole('treeitem').first().click();
  await expect(page).toHaveURL(/\/Book\?/);
});

test('staff: edit a book, hide it (readers then see no data), open it again', async ({ page, browser }) => {
  await login(page, DEMO.catalogAdmin.loginName, DEMO.catalogAdmin.password);
  await expect(page).toHaveURL(/\/($|\?)/);
  await openBook(page, '測試叢書第2種');
  await page.getByRole('button', { name: '编辑' }).click();
  const dialog = page.getByRole('dialog', { name: '编辑古籍信息' });
  await dialog.getByLabel('著者').fill('佚名');
  await dialog.getByLabel('附注').fill('卷端鈐「國立北平圖書館藏」印。\n有朱筆圈點。');
  await dialog.getByRole('switch', { name: '公开显示' }).click();
  await dialog.getByRole('button', { name: '保存' }).click();
  await expectToast(page, MSG.modifySuccess);
  await expect(page.getByText('佚名')).toBeVisible();
  // The notes show as recorded, one line each.
  const notes = page.locator('.book-fields .book-field-wide dd');
  await expect(notes).toHaveText('卷端鈐「國立北平圖書館藏」印。\n有朱筆圈點。', { useInnerText: true });

  const visitor = await browser.newPage();
  await visitor.goto(`/SearchPage/${bookId('測試叢書第2種')}`);
  await expect(visitor.getByText(MSG.noData)).toBeVisible();
  await visitor.close();

  // Staff still see and read the hidden book.
  await page.getByRole('button', { name: '阅读本册' }).click();
  await expect(page).toHaveURL(/\/Book\?/);
  await openBook(page, '測試叢書第2種');
  await page.getByRole('button', { name: '编辑' }).click();
  await page.getByRole('dialog', { name: '编辑古籍信息' }).getByRole('switch', { name: '公开显示' }).click();
  await page.getByRole('dialog', { name: '编辑古籍信息' }).getByRole('button', { name: '保存' }).click();
  await expectToast(page, MSG.modifySuccess);
});

test('reader: turn pages right-to-left, page box, volume switch, zoom, URL follows the page', async ({
  page,
}) => {
  await login(page, DEMO.reader.loginName, DEMO.reader.password);
  await expect(page).toHaveURL(/\/($|\?)/);
  await openBook(page, '論語');
  await page.getByRole('tree', { name: '卷一目录' }).getByText('學而第一').click();
  await expect(page).toHaveURL(/\/Book\?.*catalogId=/);
  const pane = page.getByRole('region', { name: /第 1 页图像/ });
  await expect(pane).toBeVisible();
  await expect(pane).toHaveAttribute('data-drawn', 'true');
  const pageBox = page.getByRole('textbox', { name: '页码' });
  await expect(pageBox).toHaveValue('1');
  await expect(page.getByText(/共 29 页/)).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: 'test-results/tour-4-reader.png' });

  await page.getByRole('button', { name: '下一页' }).click();
  await expect(pageBox).toHaveValue('2');
  const urlOfPage2 = page.url();
  await page.keyboard.press('ArrowLeft');
  await expect(pageBox).toHaveValue('3');
  await page.keyboard.press('ArrowRight');
  await expect(pageBox).toHaveValue('2');
  await expect(page).toHaveURL(urlOfPage2);

  await pageBox.fill('0');
  await pageBox.press('Enter');
  await expect(pageBox).toHaveValue('1');
  // Page 1 is shown (the page box is made anew for it) before the next number is typed into it.
  await expect(page).not.toHaveURL(urlOfPage2);
  await expect(page.getByRole('region', { name: /第 1 页图像/ })).toBeVisible();
  await pageBox.fill('9a9');
  await pageBox.press('Enter');
  await expect(pageBox).toHaveValue('29');
  await page.getByRole('button', { name: '首页' }).click();
  await expect(pageBox).toHaveValue('1');
  await page.getByRole('button', { name: '尾页' }).click();
  await expect(pageBox).toHaveValue('29');
  await page.goBack();
  await expect(pageBox).toHaveValue('1');
  await page.reload();
  await expect(pageBox).toHaveValue('1');

  const zoom = page.getByRole('combobox', { name: '缩放比例' });
  const zoomText = async () => (await page.locator('.ant-select', { has: zoom }).innerText()).trim();
  const before = await zoomText();
  await page.getByRole('button', { name: '放大' }).click();
  await expect.poll(zoomText).not.toBe(before);
  await page.screenshot({ path: 'test-results/tour-5-reader-zoomed.png' });

  await page.getByRole('button', { name: '目录' }).click();
  await expect(page.getByRole('navigation', { name: '本册目录' })).toBeHidden();
  await page.getByRole('button', { name: '目录' }).click();
  await expect(
    page.getByRole('navigation', { name: '本册目录' }).locator('[aria-selected="true"]'),
  ).toBeVisible();

  await page.getByRole('combobox', { name: '选择分册' }).click();
  await page.locator('.ant-select-item-option', { hasText: '卷二' }).click();
  await expect(page.getByText(/共 35 页/)).toBeVisible();
  await expect(pageBox).toHaveValue('1');
});

test('reader: a visitor is sent to login, a hidden or unknown book shows no data', async ({ page }) => {
  await page.goto(`/Book?catalogId=${bookId('論語')}`);
  await expectToast(page, MSG.loginRequiredNotice);
  await expect(page).toHaveURL(/\/Login/, { timeout: 3000 });
  const signedIn = await login(page, DEMO.reader.loginName, DEMO.reader.password);
  expect(signedIn.status(), await signedIn.text()).toBe(200);
  await expectToast(page, MSG.loginSuccess);
  await expect(page).not.toHaveURL(/\/Login/);
  await page.goto('/Book?catalogId=999999');
  await expectToast(page, MSG.noData);
  await expect(page).toHaveURL(/\/$/, { timeout: 3000 });
});

test('catalogue screens in traditional characters and a narrow window', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/');
  await page.getByRole('button', { name: '繁體中文' }).click();
  await expect(page.getByRole('heading', { name: '熱門瀏覽' })).toBeVisible();
  await page.screenshot({ path: 'test-results/mobile-home-traditional.png', fullPage: true });
  await page.goto(`/SearchPage/${bookId('詩經')}`);
  await expect(page.getByRole('heading', { name: '詩經', level: 1 })).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: 'test-results/mobile-book-traditional.png', fullPage: true });
  await page.evaluate(() => localStorage.setItem('language', 's'));
});
