import { expect, test, type Page } from '@playwright/test';
import { MSG } from '@guji/shared';
import {
  dbGet,
  dbRun,
  DEMO,
  expectAccessible,
  expectToast,
  login,
  READING_ROOM_HEADERS,
  settled,
} from './support.ts';

/** Picks an option of an antd select by its visible text. */
async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByLabel(label).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).click();
  await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
}

test('advanced book search: rows joined by AND and OR, fuzzy and exact, pager of 8, address kept', async ({
  page,
}) => {
  await page.goto('/AdvancedSearch');
  await expect(page.getByRole('heading', { name: '高级检索', level: 1 })).toBeVisible();
  // Outside the reading room there is no tab choice and no full-text search.
  await expect(page.getByRole('tab')).toHaveCount(0);
  // The first row has no connector and cannot be removed.
  await expect(page.getByRole('button', { name: '删除第 1 行' })).toHaveCount(0);
  await page.getByRole('button', { name: '检索', exact: true }).click();
  await expectToast(page, '请输入检索内容');

  await page.getByLabel('第 1 行的检索内容').fill('论语');
  await page.getByRole('button', { name: '添加条件' }).click();
  await choose(page, '第 2 行的检索字段', '题名');
  await page.getByLabel('第 2 行的检索内容').fill('孟子');
  await choose(page, '第 2 行的逻辑关系', '或者');
  await page.getByRole('button', { name: '检索', exact: true }).click();
  const results = page.getByRole('region', { name: '检索结果' });
  await expect(results.getByRole('heading', { name: '論語' })).toBeVisible();
  await expect(results.getByRole('heading', { name: '孟子' })).toBeVisible();
  await expect(results.getByText('共 2 条')).toBeVisible();
  await expect(page).toHaveURL(/type=0&page=1&match=1&rows=/);
  await page.screenshot({ path: 'test-results/tour-6-advanced.png', fullPage: true });

  // AND instead: nothing has both in its title.
  await choose(page, '第 2 行的逻辑关系', '并且');
  await page.getByRole('button', { name: '检索', exact: true }).click();
  await expect(results.getByText('未找到相关古籍')).toBeVisible();

  // Remove row 2; exact mode needs the whole title.
  await page.getByRole('button', { name: '删除第 2 行' }).click();
  await page.getByLabel('第 1 行的检索内容').fill('论');
  await page.getByRole('radio', { name: '精确匹配' }).check();
  await page.getByRole('button', { name: '检索', exact: true }).click();
  await expect(results.getByText('未找到相关古籍')).toBeVisible();
  await page.getByLabel('第 1 行的检索内容').fill('论语');
  await page.getByRole('button', { name: '检索', exact: true }).click();
  await expect(results.getByText('共 1 条')).toBeVisible();
  // Reload keeps the search.
  await page.reload();
  await expect(page.getByLabel('第 1 行的检索内容')).toHaveValue('论语');
  await expect(page.getByRole('radio', { name: '精确匹配' })).toBeChecked();
  await expect(page.getByRole('region', { name: '检索结果' }).getByText('共 1 条')).toBeVisible();
  await expectAccessible(page);

  // The API refuses full-text search outside the reading room, with a clear message.
  const refused = await page.request.get('/api/search/full-text?text=学而');
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { message: string }).message).toBe(MSG.fullTextReadingRoomOnly);

  // Reset clears the rows and the results.
  await page.getByRole('button', { name: '重置' }).click();
  await expect(page.getByLabel('第 1 行的检索内容')).toHaveValue('');
  await expect(page.getByRole('region', { name: '检索结果' })).toHaveCount(0);
});

test('full-text search in the reading room: simplified query, count, snippet, the hit framed in the reader', async ({
  browser,
}) => {
  const context = await browser.newContext({ extraHTTPHeaders: READING_ROOM_HEADERS });
  const page = await context.newPage();
  await login(page, DEMO.reader.loginName, DEMO.reader.password);
  await expect(page).toHaveURL(/\/($|\?)/);

  await page.goto('/AdvancedSearch?type=1');
  await expect(page.getByRole('tab', { name: '全文' })).toHaveAttribute('aria-selected', 'true');
  await page.getByLabel('全文检索内容').fill('学而时习');
  await page.getByRole('button', { name: '检索', exact: true }).click();
  const results = page.getByRole('region', { name: '全文检索结果' });
  await expect(results.getByText(/约 \d+ 条结果/)).toBeVisible();
  const hit = results.getByRole('article').first();
  await expect(hit.getByRole('heading', { name: '論語' })).toBeVisible();
  await expect(hit.locator('mark')).toHaveText('學而時習');
  await expect(page).toHaveURL(/type=1&page=1&text=/);
  await page.screenshot({ path: 'test-results/tour-7-full-text.png', fullPage: true });

  // The book's name leads to its page; each page found opens the reader there.
  await expect(hit.getByRole('link', { name: '論語' })).toHaveAttribute('href', /\/SearchPage\/\d+/);
  await hit
    .getByRole('link', { name: /第 \d+ 页/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/Book\?.*hl=/);
  const pane = page.getByRole('region', { name: /第 \d+ 页图像/ });
  await expect(pane).toHaveAttribute('data-drawn', 'true');
  await expect(pane).toHaveAttribute('data-highlights', '4');
  await expect(page.locator('.osd-hit')).toHaveCount(4);
  await page.screenshot({ path: 'test-results/tour-8-hit-in-reader.png' });

  // Switching tabs keeps the type in the address.
  await page.goto('/AdvancedSearch?type=1');
  await page.getByRole('tab', { name: '古籍' }).click();
  await expect(page).toHaveURL(/type=0/);
  await context.close();
});

test('a visitor in the reading room is asked to log in before searching the text', async ({ browser }) => {
  const context = await browser.newContext({ extraHTTPHeaders: READING_ROOM_HEADERS });
  const page = await context.newPage();
  await page.goto('/AdvancedSearch?type=1&page=1&text=' + encodeURIComponent('学而'));
  // The address asks for results, but snippets are for signed-in readers: none are fetched, and the
  // page says so with a sign-in link that comes back here (issue 32: a shared link had shown nothing).
  await expect(page.getByRole('tab', { name: '全文' })).toHaveAttribute('aria-selected', 'true');
  const results = page.getByRole('region', { name: '全文检索结果' });
  await expect(results).toContainText('全文检索的结果仅供登录读者查看');
  const here = new URL(page.url());
  await expect(results.getByRole('link', { name: '登录' })).toHaveAttribute(
    'href',
    `/Login?redirect=${encodeURIComponent(here.pathname + here.search)}`,
  );
  await expect(results.locator('.book-group-list')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/full-text-visitor.png' });
  await page.getByLabel('全文检索内容').fill('学而时习');
  await page.getByRole('button', { name: '检索', exact: true }).click();
  await expectToast(page, MSG.loginRequiredNotice);
  await expect(page).toHaveURL(/\/Login/);
  const refused = await page.request.get('/api/search/full-text?text=' + encodeURIComponent('学而'));
  expect(refused.status()).toBe(401);
  await context.close();
});

test('full-text query syntax and grouped results: help, AND/NOT, counts per book, filters, order, exact forms', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ extraHTTPHeaders: READING_ROOM_HEADERS });
  const page = await context.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  // The «正在检索…» tip of the title search is a line above the results: results that have arrived
  // are never dimmed or covered by it.
  await page.goto('/SearchPage?title=' + encodeURIComponent('論語'));
  await expect(page.getByRole('heading', { name: '論語', level: 3 })).toBeVisible();
  await expect(page.locator('.ant-spin-blur')).toHaveCount(0);
  await login(page, DEMO.reader.loginName, DEMO.reader.password);
  await expect(page).toHaveURL(/\/($|\?)/);
  await page.goto('/AdvancedSearch?type=1');

  // The syntax help, in Chinese, next to the box.
  await page.getByRole('button', { name: '检索语法' }).click();
  const help = page.locator('.query-help');
  await expect(help.getByText(/子曰 NEAR\/10/)).toBeVisible();
  await expect(help.getByText(/排除含有该词的页/)).toBeVisible();
  await page.screenshot({ path: 'test-results/full-text-help.png' });
  await page.keyboard.press('Escape');

  // A query of exclusions only is refused before searching, with its message.
  const box = page.getByLabel('全文检索内容');
  await box.fill('-曾子');
  await page.getByRole('button', { name: '检索', exact: true }).click();
  await expectToast(page, '检索式不能只有排除词（NOT 或 -），请至少输入一个要查找的词');

  // 君子 on pages without 子曰: books with their exact counts, as the API gives them.
  await box.fill('君子 -子曰');
  await page.getByRole('button', { name: '检索', exact: true }).click();
  const results = page.getByRole('region', { name: '全文检索结果' });
  // The «正在检索…» tip sits above the results and never dims or covers them.
  await expect(results.getByRole('article').first()).toBeVisible();
  await expect(page.locator('.ant-spin-blur')).toHaveCount(0);
  const api = async (query: string) => {
    const response = await page.request.get(`/api/search/full-text/books?${query}`);
    expect(response.status()).toBe(200);
    return (await response.json()) as {
      total: number;
      summary: { pages: number; occurrences: number; books: number };
      records: Array<{ catalogId: number; catalogName: string; pages: number; occurrences: number }>;
      facets: { catalog: Array<{ value: string; label: string; pages: number }> };
    };
  };
  const text = encodeURIComponent('君子 -子曰');
  const expected = await api(`text=${text}&sort=relevance`);
  expect(expected.summary.books).toBeGreaterThan(1);
  await expect(results.getByText(`约 ${expected.summary.pages} 条结果`)).toBeVisible();
  await expect(
    results.getByText(`${expected.summary.occurrences} 处，见于 ${expected.summary.books} 部古籍`),
  ).toBeVisible();
  const groups = results.getByRole('article');
  const first = expected.records[0]!;
  await expect(groups.first().getByRole('heading', { name: first.catalogName })).toBeVisible();
  await expect(groups.first().getByText(`共 ${first.pages} 页，${first.occurrences} 处`)).toBeVisible();
  // Every mark is the term looked for.
  const marks = await groups.first().locator('mark').allTextContents();
  expect(marks.length).toBeGreaterThan(0);
  for (const mark of marks) expect(mark).toBe('君子');
  await settled(page);
  await page.screenshot({ path: 'test-results/full-text-grouped-1440.png', fullPage: true });

  // A book's first pages, then all of them.
  const rows = groups.first().locator('.full-text-hit');
  await expect(rows).toHaveCount(Math.min(3, first.pages));
  if (first.pages > 3) {
    await groups
      .first()
      .getByRole('button', { name: `展开本书全部 ${first.pages} 页` })
      .click();
    await expect(rows).toHaveCount(Math.min(8, first.pages));
    await expect(groups.first().getByRole('button', { name: '收起' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
  }

  // Filter by a book: its counts alone; the address keeps the filter.
  const book = expected.facets.catalog[1]!;
  await page.getByLabel('按古籍筛选').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: book.label }).click();
  await expect(page).toHaveURL(new RegExp(`catalogId=${book.value}`));
  await expect(results.getByRole('article')).toHaveCount(1);
  await expect(results.getByText(`约 ${book.pages} 条结果`)).toBeVisible();

  // Order by title: in the address; back to all books.
  await page.getByRole('radiogroup', { name: '排序' }).getByText('书名').click();
  await expect(page).toHaveURL(/sort=title/);
  const bookFilter = page.locator('.full-text-filter').first();
  await bookFilter.hover();
  await bookFilter.locator('.ant-select-clear').click();
  await expect(page).not.toHaveURL(/catalogId=/);
  const byTitle = await api(`text=${text}&sort=title`);
  await expect(results.getByRole('article').first().getByRole('heading')).toHaveText(
    byTitle.records[0]!.catalogName,
  );

  // The whole row opens the reader; its link is what the keyboard reaches.
  const link = results
    .getByRole('article')
    .first()
    .getByRole('link', { name: /第 \d+ 页/ })
    .first();
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/Book\?.*hl=/);
  // The reader frames the terms looked for (君子), not the excluded one.
  const pane = page.getByRole('region', { name: /第 \d+ 页图像/ });
  await expect(pane).toHaveAttribute('data-drawn', 'true');
  await expect(pane).not.toHaveAttribute('data-highlights', '0');
  await page.goBack();

  // Simplified 学而: found in the traditional books by default, not with 精确字形.
  await box.fill('学而');
  await page.getByRole('button', { name: '检索', exact: true }).click();
  await expect(results.getByText(/约 [1-9]\d* 条结果/)).toBeVisible();
  // The switch lives in the address: clicking it searches again.
  await page.getByRole('checkbox', { name: '精确字形' }).click();
  await expect(page).toHaveURL(/exact=1/);
  await expect(page.getByRole('checkbox', { name: '精确字形' })).toBeChecked();
  await expect(results.getByText('未找到相关内容')).toBeVisible();

  // Traditional script and a phone's width.
  await page.goto(`/AdvancedSearch?type=1&text=${text}`);
  await page.evaluate(() => localStorage.setItem('language', 't'));
  await page.reload();
  // The interface (labels included) is in traditional characters now.
  await expect(page.getByRole('region', { name: '全文檢索結果' }).getByText(/約 \d+ 條結果/)).toBeVisible();
  await settled(page);
  await page.screenshot({ path: 'test-results/full-text-grouped-1440-t.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/full-text-grouped-390-t.png', fullPage: true });
  await page.evaluate(() => localStorage.setItem('language', 's'));
  await page.reload();
  await expect(results.getByText(/约 \d+ 条结果/)).toBeVisible();
  await settled(page);
  await page.screenshot({ path: 'test-results/full-text-grouped-390.png', fullPage: true });
  await expectAccessible(page);
  await context.close();
});

test('advanced search in traditional characters and a narrow window', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/AdvancedSearch');
  await page.evaluate(() => localStorage.setItem('language', 't'));
  await page.reload();
  await expect(page.getByRole('heading', { name: '高級檢索', level: 1 })).toBeVisible();
  await page.getByLabel(/第 1 行的檢索內容|第 1 行的检索内容/).fill('論語');
  await page.getByRole('button', { name: /檢索/, exact: false }).first().click();
  await expect(page.getByText('共 1 條').or(page.getByText('共 2 條'))).toBeVisible();
  await page.screenshot({ path: 'test-results/tour-9-advanced-narrow.png', fullPage: true });
});

test('in-book search in the reading room: on the book page and in the reader, with its warning case', async ({
  browser,
  page: outside,
}) => {
  // Outside the reading room neither box exists.
  await outside.goto('/SearchPage?title=論語');
  await outside.getByRole('link', { name: '論語' }).first().click();
  await expect(outside.getByRole('heading', { name: '論語', level: 1 })).toBeVisible();
  await expect(outside.getByRole('search', { name: '书内检索' })).toHaveCount(0);

  const context = await browser.newContext({ extraHTTPHeaders: READING_ROOM_HEADERS });
  const page = await context.newPage();
  await login(page, DEMO.reader.loginName, DEMO.reader.password);
  await expect(page).toHaveURL(/\/($|\?)/);
  await page.goto(outside.url());
  await expect(page.getByRole('heading', { name: '論語', level: 1 })).toBeVisible();

  // Nothing found: the warning, and an empty result view.
  await page.getByLabel('书内检索内容').fill('鑫');
  await page.getByLabel('书内检索内容').press('Enter');
  await expectToast(page, MSG.noMatchingText);

  await page.getByLabel('书内检索内容').fill('巧言令色');
  await page.getByLabel('书内检索内容').press('Enter');
  const results = page.getByRole('region', { name: '书内检索结果' });
  await expect(results.getByText(/共 \d+ 条/)).toBeVisible();
  await expect(results.getByRole('button', { name: /巧言令色/ }).first()).toContainText('卷一');
  await expect(page).toHaveURL(/q=/);
  await page.screenshot({ path: 'test-results/tour-10-in-book.png', fullPage: true });
  // Back to the volumes and directory.
  await results.getByRole('button', { name: '返回目录' }).click();
  await expect(page.getByRole('region', { name: '书内检索结果' })).toHaveCount(0);
  await page.goBack();
  await page
    .getByRole('region', { name: '书内检索结果' })
    .getByRole('button', { name: /巧言令色/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/Book\?.*hl=/);
  const pane = page.getByRole('region', { name: /第 \d+ 页图像/ });
  await expect(pane).toHaveAttribute('data-drawn', 'true');
  await expect(pane).toHaveAttribute('data-highlights', '4');

  // In the reader: the toolbar's box, hits in a panel, opening one turns to its page with the hit framed.
  await page.getByRole('group', { name: '阅读工具栏' }).getByLabel('书内检索内容').fill('为政以德');
  await page.getByRole('group', { name: '阅读工具栏' }).getByLabel('书内检索内容').press('Enter');
  const panel = page.getByRole('region', { name: '书内检索结果' });
  await expect(panel.getByText(/共 \d+ 条/)).toBeVisible();
  await panel
    .getByRole('button', { name: /為政以德|为政以德/ })
    .first()
    .click();
  await expect(page).toHaveURL(/hl=/);
  await expect(page.getByRole('region', { name: /第 \d+ 页图像/ })).toHaveAttribute('data-highlights', '4');
  await page.screenshot({ path: 'test-results/tour-11-reader-search.png' });
  await context.close();
});

test('reader text pane: recognised text in columns, side by side with the image, copied in reading order', async ({
  page,
}) => {
  await login(page, DEMO.reader.loginName, DEMO.reader.password);
  await expect(page).toHaveURL(/\/($|\?)/);
  await page.goto('/SearchPage?title=論語');
  await page.getByRole('link', { name: '論語' }).first().click();
  await page.getByRole('button', { name: '阅读本册' }).click();
  await expect(page.getByRole('region', { name: '第 1 页图像' })).toHaveAttribute('data-drawn', 'true');

  await page.locator('.ant-segmented-item', { hasText: '图文' }).click();
  const text = page.getByRole('region', { name: '第 1 页文字' });
  await expect(text).toBeVisible();
  await expect(page.getByRole('region', { name: '第 1 页图像' })).toBeVisible();
  await expect(text.locator('[data-word]').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/tour-12-text-both.png' });

  // Selecting the pane copies its text column by column, right to left, top to bottom.
  const selected = await text.evaluate((pane) => {
    const range = document.createRange();
    range.selectNodeContents(pane);
    const selection = window.getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
    return selection.toString().replace(/\s+/g, '');
  });
  expect(selected.startsWith('學而第一子曰學而時習之') || selected.startsWith('学而第一子曰学而时习之')).toBe(
    true,
  );

  // Text only, and the zoom is kept per mode.
  await page.locator('.ant-segmented-item', { hasText: '文字' }).click();
  await expect(page.getByRole('region', { name: '第 1 页图像' })).toBeHidden();
  const zoom = page.getByRole('combobox', { name: /缩放/ });
  await expect(text).toBeVisible();
  await page.getByRole('button', { name: '放大', exact: true }).click();
  const textZoom = await zoom.locator('xpath=ancestor::*[contains(@class,"ant-select")][1]').innerText();
  await page.locator('.ant-segmented-item', { hasText: '图像' }).click();
  await page.locator('.ant-segmented-item', { hasText: '文字' }).click();
  await expect(zoom.locator('xpath=ancestor::*[contains(@class,"ant-select")][1]')).toHaveText(textZoom);
});

test('a real scanned book: the OCR reads its leaves at first start, the text pane shows them with confidence colours', async ({
  page,
}) => {
  test.setTimeout(180_000);
  // The demo's 史記 leaves come without text; the server's job worker reads them after the import.
  const book = dbGet<{ id: number }>("select id from books where source_key = 'demo:shiji-wyg'")!;
  await expect
    .poll(
      () =>
        dbGet<{ n: number }>(
          'select count(*) as n from pages where book_id = ? and ocr_json is not null',
          book.id,
        )?.n,
      { timeout: 150_000, intervals: [2000] },
    )
    .toBe(4);

  await login(page, DEMO.reader.loginName, DEMO.reader.password);
  await expect(page).toHaveURL(/\/($|\?)/);
  await page.goto(`/SearchPage/${book.id}`);
  await expect(page.getByRole('heading', { name: /史[記记]/, level: 1 })).toBeVisible();
  await page.getByRole('button', { name: '阅读本册' }).click();
  const pageBox = page.getByRole('textbox', { name: '页码' });
  await pageBox.fill('3');
  await pageBox.press('Enter');
  await expect(page.getByRole('region', { name: '第 3 页图像' })).toHaveAttribute('data-drawn', 'true');
  await page.locator('.ant-segmented-item', { hasText: '图文' }).click();
  const text = page.getByRole('region', { name: '第 3 页文字' });
  await expect(text).toBeVisible();
  // Leaf 2a: eight columns of double-line notes, about 330 characters; the unsure ones are coloured.
  await expect.poll(() => text.locator('[data-word]').count()).toBeGreaterThan(250);
  expect(await text.locator('[data-word].ocr-low, [data-word].ocr-mid').count()).toBeGreaterThan(0);
  await page.screenshot({ path: 'test-results/tour-13-real-scan.png' });
});

test('proofreading on /OCRPage: correct one character, save a version, find the corrected text', async ({
  browser,
}) => {
  const context = await browser.newContext({ extraHTTPHeaders: READING_ROOM_HEADERS });
  const page = await context.newPage();
  await login(page, DEMO.catalogAdmin.loginName, DEMO.catalogAdmin.password);
  await expect(page).toHaveURL(/\/($|\?)/);
  await page.goto('/SearchPage?title=大學');
  await page.getByRole('link', { name: '大學' }).first().click();
  await page.getByRole('button', { name: '阅读本册' }).click();
  await expect(page.getByRole('region', { name: '第 1 页图像' })).toHaveAttribute('data-drawn', 'true');
  await page.getByRole('link', { name: '校对文字' }).click();
  await expect(page).toHaveURL(/\/OCRPage\?imgid=\d+/);
  await expect(page.getByRole('heading', { name: /文字校对/ })).toBeVisible();

  // The first body character: correct it to a character found nowhere in the library.
  const cell = page.getByLabel('第 1 列第 1 字', { exact: true });
  const original = await cell.inputValue();
  const next = page.getByLabel('第 1 列第 2 字', { exact: true });
  const following = await next.inputValue();
  await cell.fill('鑫');
  await expect(page.getByText('有未保存的修改')).toBeVisible();
  await page.getByRole('button', { name: '第 1 列第 1 字的框' }).click();
  await expect(page.getByText(/第 1 列第 1 字：鑫/)).toBeVisible();
  await page.screenshot({ path: 'test-results/tour-13-ocr-page.png', fullPage: true });
  await page.getByRole('button', { name: '保存为新版本' }).click();
  await expectToast(page, '已保存为第 2 版');
  await expect(page.getByText(/第 1 版 · 原有文字/)).toBeVisible();

  // Full-text search finds the corrected text.
  const ocrPage = page.url();
  await page.goto(`/AdvancedSearch?type=1&page=1&text=${encodeURIComponent('鑫' + following)}`);
  await expect(page.getByRole('region', { name: '全文检索结果' }).getByText('约 1 条结果')).toBeVisible();

  // Going back to version 1 saves it as version 3: the original text is found again, nothing is lost.
  await page.goto(ocrPage);
  await page.getByRole('button', { name: '恢复此版' }).last().click();
  await expectToast(page, '已恢复，保存为第 3 版');
  await expect(page.getByLabel('第 1 列第 1 字', { exact: true })).toHaveValue(original);
  await context.close();
});

test("/OCRPage shows what the OCR engine noticed about the page's newest reading", async ({ browser }) => {
  const context = await browser.newContext({ extraHTTPHeaders: READING_ROOM_HEADERS });
  const page = await context.newPage();
  await login(page, DEMO.catalogAdmin.loginName, DEMO.catalogAdmin.password);
  await expect(page).toHaveURL(/\/($|\?)/);
  await page.goto('/SearchPage?title=中庸');
  await page.getByRole('link', { name: '中庸' }).first().click();
  await page.getByRole('button', { name: '阅读本册' }).click();
  await expect(page.getByRole('region', { name: '第 1 页图像' })).toHaveAttribute('data-drawn', 'true');
  await page.getByRole('link', { name: '校对文字' }).click();
  await expect(page).toHaveURL(/\/OCRPage\?imgid=\d+/);
  const imageId = Number(new URL(page.url()).searchParams.get('imgid'));
  // A recognition run that read little on this page, as the engine records it (no UI makes one).
  const message = '版面找到了文字区域，但只识别出 3 个字（按行长约应有 120 字），可能有漏识，请核对。';
  const last = dbGet<{ v: number | null }>(
    'SELECT MAX(version) AS v FROM ocr_versions WHERE page_id = ?',
    imageId,
  );
  const json = dbGet<{ ocr_json: string }>('SELECT ocr_json FROM pages WHERE id = ?', imageId)!.ocr_json;
  dbRun(
    `INSERT INTO ocr_versions (page_id, version, source, ocr_json, created_by, created_at, warnings)
     VALUES (?, ?, 'ocr:vertical+own', ?, NULL, ?, ?)`,
    imageId,
    (last?.v ?? 0) + 1,
    json,
    new Date().toISOString(),
    JSON.stringify([{ code: 'little-text', message }]),
  );
  await page.reload();
  const alert = page.getByRole('alert').filter({ hasText: '识别提示' });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText(message);
  await expect(page.getByText('有识别提示')).toBeVisible();
  await page.screenshot({ path: 'test-results/ocr-page-warning.png', fullPage: true });
  // A proofread version is the proofreader's: saving one puts the notice away.
  const cell = page.getByLabel('第 1 列第 1 字', { exact: true });
  const original = await cell.inputValue();
  await cell.fill(original === '鑫' ? '淼' : '鑫');
  await page.getByRole('button', { name: '保存为新版本' }).click();
  await expectToast(page, /已保存为第 \d+ 版/);
  await expect(page.getByRole('alert').filter({ hasText: '识别提示' })).toHaveCount(0);
  await context.close();
});
