import { expect, test, type Locator, type Page } from '@playwright/test';
import { dbGet, DEMO, login, READING_ROOM_HEADERS, settled } from './support.ts';

/**
 * Issue 16, the reader: every mode fits its pane at 1440×900 and on a 390×844 phone, in 简 and 繁, with
 * the text at a readable size; characters are linked between the text and the image; thumbnails, the
 * spread, keys and swipes turn pages; the in-book search lists its hits beside the page and steps
 * through them.
 */

const lunyuId = () => dbGet<{ id: number }>('select id from books where title = ?', '論語')!.id;
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

async function openLunyu(page: Page, language: 's' | 't' = 's'): Promise<void> {
  await login(page, DEMO.reader.loginName, DEMO.reader.password);
  await expect(page).toHaveURL(/\/($|\?)/);
  await page.evaluate((lang) => localStorage.setItem('language', lang), language);
  await page.goto(`/Book?catalogId=${lunyuId()}`);
  await expect(page.getByRole('region', { name: /第 1 [页頁][图圖]像/ })).toHaveAttribute(
    'data-drawn',
    'true',
  );
}

/** Asserts the element is laid out wholly inside the window, with some size. */
async function expectInsideViewport(page: Page, element: Locator): Promise<void> {
  const box = await element.boundingBox();
  const viewport = page.viewportSize()!;
  expect(box, 'laid out').not.toBeNull();
  expect(box!.width).toBeGreaterThan(100);
  expect(box!.height).toBeGreaterThan(100);
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width + 0.5);
  expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height + 0.5);
}

/** The computed font size of the main text (not the notes) of the text pane, in CSS pixels. */
async function textFontSize(pane: Locator): Promise<number> {
  return pane
    .locator('[data-word]:not(.ocr-note)')
    .first()
    .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
}

async function chooseMode(page: Page, label: '图像' | '文字' | '图文', traditional: boolean): Promise<void> {
  const shown = traditional ? { 图像: '圖像', 文字: '文字', 图文: '圖文' }[label] : label;
  await page.locator('.ant-segmented-item', { hasText: shown }).click();
}

for (const [name, viewport] of [
  ['1440×900', DESKTOP],
  ['390×844 phone', PHONE],
] as const) {
  for (const language of ['s', 't'] as const) {
    test(`every reader mode fits at ${name} in ${language === 's' ? '简' : '繁'}, text readable`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ viewport, hasTouch: viewport === PHONE });
      const page = await context.newPage();
      await openLunyu(page, language);
      const traditional = language === 't';
      const image = page.getByRole('region', { name: /第 1 [页頁][图圖]像/ });
      await expectInsideViewport(page, image);
      await page.screenshot({ path: `test-results/reader-${viewport.width}-${language}-image.png` });

      await chooseMode(page, '文字', traditional);
      const text = page.getByRole('region', { name: /第 1 [页頁]文字/ });
      await expect(text.locator('[data-word]').first()).toBeVisible();
      await expectInsideViewport(page, text);
      expect(await textFontSize(text)).toBeGreaterThanOrEqual(14);
      await page.screenshot({ path: `test-results/reader-${viewport.width}-${language}-text.png` });

      await chooseMode(page, '图文', traditional);
      await expect(text.locator('[data-word]').first()).toBeVisible();
      await expect(image).toHaveAttribute('data-drawn', 'true');
      await expectInsideViewport(page, text);
      await expectInsideViewport(page, image);
      expect(await textFontSize(text)).toBeGreaterThanOrEqual(14);
      await page.screenshot({ path: `test-results/reader-${viewport.width}-${language}-both.png` });
      await context.close();
    });
  }
}

test('图文: a character hovered in the text is framed on the image, and the other way round', async ({
  page,
}) => {
  await page.setViewportSize(DESKTOP);
  await openLunyu(page);
  await chooseMode(page, '图文', false);
  const text = page.getByRole('region', { name: '第 1 页文字' });
  const image = page.getByRole('region', { name: '第 1 页图像' });
  await expect(image).toHaveAttribute('data-drawn', 'true');

  // Text → image: the linked box lies over the image pane.
  const char = text.locator('[data-word]:not(.ocr-note)').nth(3);
  await char.hover();
  const link = image.locator('.osd-link');
  await expect(link).toHaveCount(1);
  const linkBox = (await link.boundingBox())!;
  const imageBox = (await image.boundingBox())!;
  expect(linkBox.x).toBeGreaterThanOrEqual(imageBox.x);
  expect(linkBox.x + linkBox.width).toBeLessThanOrEqual(imageBox.x + imageBox.width);

  // Image → text: pointing at that box marks the same character in the text.
  const key = await char.getAttribute('data-word');
  await page.mouse.move(1, 1);
  await expect(link).toHaveCount(0);
  await page.mouse.move(linkBox.x + linkBox.width / 2, linkBox.y + linkBox.height / 2);
  await expect(text.locator(`[data-word="${key}"]`)).toHaveClass(/is-linked/);
  await expect(image.locator('.osd-link')).toHaveCount(1);

  // Selecting text outlines its characters on the image.
  await text
    .locator('[data-word]:not(.ocr-note)')
    .nth(0)
    .evaluate((first) => {
      const last = first.parentElement!.querySelectorAll('[data-word]')[3]!;
      const range = document.createRange();
      range.setStartBefore(first);
      range.setEndAfter(last);
      const selection = window.getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
    });
  await expect(image.locator('.osd-selected')).toHaveCount(4);
  await page.screenshot({ path: 'test-results/reader-linked.png' });
});

test('thumbnails, the spread, keys: pages turn right to left', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await openLunyu(page);
  const pageBox = page.getByRole('textbox', { name: '页码' });
  await page.getByRole('tab', { name: '缩略图' }).click();
  const thumbnails = page.getByRole('navigation', { name: '本册缩略图' });
  await expect(thumbnails.getByRole('button', { name: '第 1 页' })).toHaveAttribute('aria-current', 'page');
  await thumbnails.getByRole('button', { name: '第 5 页' }).click();
  await expect(pageBox).toHaveValue('5');
  await expect(thumbnails.getByRole('button', { name: '第 5 页' })).toHaveAttribute('aria-current', 'page');
  await expect(thumbnails.locator('img').first()).toHaveJSProperty('complete', true);
  await page.screenshot({ path: 'test-results/reader-thumbnails.png' });

  await page.keyboard.press('End');
  await expect(pageBox).toHaveValue('29');
  await page.keyboard.press('Home');
  await expect(pageBox).toHaveValue('1');

  await page.getByRole('button', { name: '双页' }).click();
  const spread = page.getByRole('region', { name: '第 1、2 页图像' });
  await expect(spread).toHaveAttribute('data-spread', 'true');
  await expect(spread).toHaveAttribute('data-drawn', 'true');
  await page.getByRole('button', { name: '下一页' }).click();
  await expect(pageBox).toHaveValue('3');
  await expect(page.getByRole('region', { name: '第 3、4 页图像' })).toHaveAttribute('data-drawn', 'true');
  await page.screenshot({ path: 'test-results/reader-spread.png' });
});

test('版式 opens fitted beside the image, readable on a phone, and A−/A+ size it', async ({ browser }) => {
  const layoutChars = (page: Page) =>
    page
      .locator('.layout-sheet [data-word]:not(.ocr-note)')
      .evaluateAll((els) => els.map((el) => parseFloat(getComputedStyle(el).fontSize)).sort((a, b) => a - b));
  // 1440 px, 图文: the page as laid out fits its pane (it had opened at the image's own size).
  const desktop = await browser.newContext({ viewport: DESKTOP });
  const page = await desktop.newPage();
  await openLunyu(page);
  await chooseMode(page, '图文', false);
  await page.getByRole('radiogroup', { name: '文字视图' }).getByText('版式').click();
  const sheet = page.locator('.layout-sheet');
  await expect(sheet).toBeVisible();
  // Fitted to its pane, or (where fitting would draw the characters under 10 px) just large enough for
  // 10 px characters; never the page's own size, as it had opened.
  const opened = async () => {
    const [sheetBox, paneBox, sizes] = await Promise.all([
      sheet.boundingBox(),
      page.getByRole('region', { name: /第 1 页文字/ }).boundingBox(),
      layoutChars(page),
    ]);
    const median = sizes[Math.floor(sizes.length / 2)] ?? 0;
    const fits = sheetBox!.width <= paneBox!.width + 1 && sheetBox!.height <= paneBox!.height + 1;
    return (fits || median < 11) && median >= 9 && sheetBox!.width < paneBox!.width * 1.5;
  };
  await expect.poll(opened).toBe(true);
  // A+ and A− step the drawn page's zoom through the reader's levels.
  const width = async () => (await sheet.boundingBox())!.width;
  const before = await width();
  await page.getByRole('button', { name: '放大字号' }).click();
  await expect.poll(width).toBeGreaterThan(before);
  const larger = await width();
  await page.getByRole('button', { name: '缩小字号' }).click();
  await expect.poll(width).toBeLessThan(larger);
  await page.screenshot({ path: 'test-results/reader-both-layout.png' });
  await desktop.close();

  // A 390 px phone, 文字 版式: the page's typical character is drawn at 10 px or more.
  const phone = await browser.newContext({ viewport: PHONE, hasTouch: true });
  const small = await phone.newPage();
  await openLunyu(small);
  await chooseMode(small, '文字', false);
  await small.getByRole('radiogroup', { name: '文字视图' }).getByText('版式').click();
  await expect(small.locator('.layout-sheet')).toBeVisible();
  await expect
    .poll(async () => {
      const sizes = await layoutChars(small);
      return sizes[Math.floor(sizes.length / 2)] ?? 0;
    })
    .toBeGreaterThanOrEqual(10);
  await small.screenshot({ path: 'test-results/reader-phone-layout.png' });
  await phone.close();
});

test('mode, page and zoom are kept in the address: a reload or a shared link opens the same view', async ({
  page,
  browser,
}) => {
  await page.setViewportSize(DESKTOP);
  await openLunyu(page);
  const pageBox = page.getByRole('textbox', { name: '页码' });
  // PageDown and PageUp turn pages as ← and → do (issue 32).
  await page.keyboard.press('PageDown');
  await expect(pageBox).toHaveValue('2');
  await page.keyboard.press('PageDown');
  await expect(pageBox).toHaveValue('3');
  await page.keyboard.press('PageUp');
  await expect(pageBox).toHaveValue('2');
  // Keys pressed back to back, the CPU slowed sixfold: each turns from the page the last key asked for. (The
  // race once seen in CI — a render of a page on the way, arriving after the next key, moved the origin
  // back — depends on render timing a test cannot force; TurnOrigin's unit tests pin it.)
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
  for (const key of ['PageDown', 'PageDown', 'PageUp', 'PageDown', 'PageDown', 'PageUp'])
    await page.keyboard.press(key);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await expect(pageBox).toHaveValue('4');
  await chooseMode(page, '图文', false);
  await page.getByRole('button', { name: '放大', exact: true }).click();
  await expect(page).toHaveURL(/[?&]mode=both(&|$)/);
  await expect(page).toHaveURL(/[?&]zoom=\d+(&|$)/);
  const zoom = new URL(page.url()).searchParams.get('zoom');
  // The side-by-side view has loaded its text and image before the next turn. (The turn is the toolbar's
  // button: a PageDown here left the page at 2 in 2 of about 10 loaded CI runs, its box showing 1 for a
  // moment, not yet understood; keys are tested above and in "thumbnails, the spread, keys".)
  await settled(page);
  await page.getByRole('button', { name: '下一页' }).click();
  await expect(pageBox).toHaveValue('5');
  // The page turn kept the view in the new address.
  await expect(page).toHaveURL(/[?&]mode=both(&|$)/);
  const shared = page.url();
  await page.reload();
  await expect(pageBox).toHaveValue('5');
  await expect(page.locator('.reader')).toHaveAttribute('data-mode', 'both');
  await expect(page.locator('.reader-zoom-select')).toContainText(`${zoom}%`);
  // The same link in another browser opens the same view.
  const other = await browser.newContext({ viewport: DESKTOP });
  const second = await other.newPage();
  await login(second, DEMO.reader.loginName, DEMO.reader.password);
  await expect(second).toHaveURL(/\/($|\?)/);
  await second.goto(shared);
  await expect(second.getByRole('textbox', { name: '页码' })).toHaveValue('5');
  await expect(second.locator('.reader')).toHaveAttribute('data-mode', 'both');
  await second.screenshot({ path: 'test-results/reader-shared-view.png' });
  await other.close();
});

test('a swipe on a touch screen turns the page; the phone toolbar keeps the rest under 更多', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  await openLunyu(page);
  const pageBox = page.getByRole('textbox', { name: '页码' });
  await expect(page.getByRole('combobox', { name: '缩放比例' })).toBeHidden();
  await page.getByRole('button', { name: '更多' }).click();
  await expect(page.getByRole('combobox', { name: '缩放比例' })).toBeVisible();
  // A tap on a control with a tooltip leaves no tooltip standing over the page (issue 32 part 8).
  await page.getByRole('button', { name: '放大', exact: true }).tap();
  await expect(page.locator('.ant-tooltip:visible')).toHaveCount(0);
  await page.getByRole('button', { name: '缩小', exact: true }).tap();
  await page.getByRole('button', { name: '更多' }).click();

  const image = page.getByRole('region', { name: '第 1 页图像' });
  const box = (await image.boundingBox())!;
  const y = box.y + box.height / 2;
  const session = await context.newCDPSession(page);
  const touch = async (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number) =>
    session.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: type === 'touchEnd' ? [] : [{ x, y }],
    });
  // Finger drawn to the right: the next page (it lies to the left in a right-to-left book).
  await touch('touchStart', box.x + 60);
  for (const x of [120, 180, 240, 300]) await touch('touchMove', box.x + x);
  await touch('touchEnd', box.x + 300);
  await expect(pageBox).toHaveValue('2');
  await expect(page.getByRole('region', { name: '第 2 页图像' })).toHaveAttribute('data-drawn', 'true');
  // 更多 left open closes when the page turns (it covers the page's foot).
  await page.getByRole('button', { name: '更多' }).click();
  await expect(page.getByRole('combobox', { name: '缩放比例' })).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(pageBox).toHaveValue('3');
  await expect(page.getByRole('combobox', { name: '缩放比例' })).toBeHidden();
  await context.close();
});

test('the page gets the screen: the toolbar on one row from 1280 px up, the header one low row', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openLunyu(page);
  const toolbar = page.getByRole('group', { name: '阅读工具栏' });
  for (const width of [1280, 1440, 1680, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    // One row of 32 px controls and its padding (two rows were 89 px).
    await expect.poll(async () => (await toolbar.boundingBox())!.height).toBeLessThan(60);
    expect((await page.locator('header').boundingBox())!.height).toBeLessThanOrEqual(48);
  }
  // The tools shown as icons keep their names, and say them on hover.
  await page.getByRole('button', { name: '下一页' }).hover();
  await expect(page.getByRole('tooltip')).toHaveText('下一页（←）');
  await page.screenshot({ path: 'test-results/reader-toolbar-1920.png' });
});

test('a faint or turned scan: rotation, brightness and contrast, full screen', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await openLunyu(page);
  const image = page.getByRole('region', { name: '第 1 页图像' });
  await expect(image).toHaveAttribute('data-drawn', 'true');
  const tools = page.getByRole('group', { name: '图像调整' });
  await tools.getByRole('button', { name: '旋转' }).click();
  await expect(image).toHaveAttribute('data-rotation', '90');
  await expect(tools.getByRole('button', { name: '旋转' })).toContainText('90°');
  // The turn stays from page to page, as the reader set it.
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('region', { name: '第 2 页图像' })).toHaveAttribute('data-rotation', '90');
  await page.screenshot({ path: 'test-results/reader-rotated.png' });
  // Brightness and contrast tone the image, not the page's text or tools.
  await tools.getByRole('button', { name: '调整' }).click();
  const brightness = page.getByRole('slider', { name: '亮度' });
  await brightness.focus();
  for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowRight');
  await expect(page.locator('.reader-image')).toHaveAttribute('style', /brightness\(120%\) contrast\(100%\)/);
  const contrast = page.getByRole('slider', { name: '对比度' });
  await contrast.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('.reader-image')).toHaveAttribute('style', /contrast\(105%\)/);
  await page.screenshot({ path: 'test-results/reader-tone.png' });
  await page.getByRole('button', { name: '复原' }).click();
  await expect(page.locator('.reader-image')).not.toHaveAttribute('style', /filter/);
  await expect(page.getByRole('region', { name: '第 2 页图像' })).toHaveAttribute('data-rotation', '0');
  await page.keyboard.press('Escape');
  // Full screen: the reader fills the screen; 退出全屏 gives the page back.
  await tools.getByRole('button', { name: '全屏' }).click();
  await expect
    .poll(() => page.evaluate(() => document.fullscreenElement?.className ?? ''))
    .toContain('reader');
  await tools.getByRole('button', { name: '退出全屏' }).click();
  await expect.poll(() => page.evaluate(() => document.fullscreenElement === null)).toBe(true);
});

test('in-book search: hits listed beside the page, each occurrence framed in turn', async ({ browser }) => {
  const context = await browser.newContext({ viewport: DESKTOP, extraHTTPHeaders: READING_ROOM_HEADERS });
  const page = await context.newPage();
  await openLunyu(page);
  const toolbar = page.getByRole('group', { name: '阅读工具栏' });
  await toolbar.getByLabel('书内检索内容').fill('子曰');
  await toolbar.getByLabel('书内检索内容').press('Enter');
  const results = page.getByRole('region', { name: '书内检索结果' });
  await expect(results.getByText(/共 \d+ 条/)).toBeVisible();
  await results.getByRole('button').filter({ hasText: '第 1 页' }).first().click();
  const image = page.getByRole('region', { name: '第 1 页图像' });
  await expect(image).toHaveAttribute('data-drawn', 'true');

  // Beside, not over: the hit list ends where the image begins.
  const listBox = (await results.boundingBox())!;
  const imageBox = (await image.boundingBox())!;
  expect(listBox.x + listBox.width).toBeLessThanOrEqual(imageBox.x + 1);

  const nav = page.getByRole('group', { name: '检索命中' });
  // The page's matches arrive after the page itself.
  await expect(nav).toContainText(/本页第 1 \/ \d+ 处/);
  const occurrences = Number(/\/ (\d+) 处/.exec((await nav.innerText()) ?? '')?.[1]);
  expect(occurrences).toBeGreaterThan(1);
  await expect(nav).toContainText(`本页第 1 / ${occurrences} 处`);
  await expect(image.locator('.osd-hit-current')).toHaveCount(2);
  await nav.getByRole('button', { name: '下一处' }).click();
  await expect(nav).toContainText(`本页第 2 / ${occurrences} 处`);
  for (let i = 2; i < occurrences; i++) await nav.getByRole('button', { name: '下一处' }).click();
  await expect(nav).toContainText(`本页第 ${occurrences} / ${occurrences} 处`);
  await nav.getByRole('button', { name: '下一处' }).click();
  await expect(page.getByRole('textbox', { name: '页码' })).not.toHaveValue('1');
  await expect(nav).toContainText('本页第 1 /');
  await nav.getByRole('button', { name: '上一处' }).click();
  await expect(page.getByRole('textbox', { name: '页码' })).toHaveValue('1');
  await expect(nav).toContainText(`本页第 ${occurrences} / ${occurrences} 处`);

  // The hits are marked in the text pane too.
  await chooseMode(page, '图文', false);
  await expect(page.getByRole('region', { name: '第 1 页文字' }).locator('.is-hit').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/reader-in-book-search.png' });
  await context.close();
});
