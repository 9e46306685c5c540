import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { dbGet, DEMO, expectAccessible, login } from './support.ts';

/** The demo 論語 (apps/server/src/demo/books.ts). */
function lunyu(): { id: number } {
  const book = dbGet<{ id: number }>('select id from books where source_key = ?', 'demo:lunyu');
  if (!book) throw new Error('the demo library has no 論語');
  return book;
}

test('a book page carries citation tags and downloads its citation as RIS, BibTeX and CSL-JSON', async ({
  page,
}) => {
  const { id } = lunyu();
  await page.goto(`/SearchPage/${id}`);
  await expect(page.getByRole('heading', { name: '論語', level: 1 })).toBeVisible();
  // What Zotero reads from the page.
  await expect(page.locator('head meta[name="citation_title"]')).toHaveAttribute('content', '論語');
  await expect(page.locator('head meta[name="citation_author"]')).toHaveAttribute(
    'content',
    '孔子弟子及再傳弟子',
  );
  await expect(page.locator('head link[rel="alternate"][type="application/x-bibtex"]')).toHaveAttribute(
    'href',
    new RegExp(`/api/books/${id}/citation/bibtex$`),
  );

  await page.getByRole('button', { name: /引用/ }).click();
  const dialog = page.getByRole('dialog', { name: '引用本书' });
  await expect(dialog).toBeVisible();
  await expect(
    dialog.getByText(/^〔春秋〕孔子弟子及再傳弟子：《論語》（DEMO-經-001），古籍數字圖書館演示排印本。/),
  ).toBeVisible();
  await expectAccessible(page);

  const [ris] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('link', { name: /RIS/ }).click(),
  ]);
  expect(ris.suggestedFilename()).toBe('論語.ris');
  const text = fs.readFileSync(await ris.path(), 'utf8');
  expect(text).toMatch(/^TY {2}- BOOK\r\n/);
  expect(text).toContain('TI  - 論語\r\n');
  expect(text).toContain(`UR  - http://127.0.0.1:${new URL(page.url()).port}/SearchPage/${id}\r\n`);

  const [bib] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('link', { name: /BibTeX/ }).click(),
  ]);
  expect(bib.suggestedFilename()).toBe('論語.bib');
  expect(fs.readFileSync(await bib.path(), 'utf8')).toMatch(
    new RegExp(`^@book\\{guji-${id},\\n  title = \\{論語\\},`),
  );

  const [csl] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('link', { name: /CSL-JSON/ }).click(),
  ]);
  expect(JSON.parse(fs.readFileSync(await csl.path(), 'utf8'))).toEqual([
    expect.objectContaining({ id: `guji-${id}`, type: 'book', title: '論語', language: 'zh' }),
  ]);
});

test('in 繁體 on a phone the citation dialog converts its words but not the book', async ({ page }) => {
  const { id } = lunyu();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/SearchPage/${id}`);
  await page.getByRole('button', { name: '繁體中文' }).click();
  await page.getByRole('button', { name: /引用/ }).click();
  const dialog = page.getByRole('dialog', { name: '引用本書' });
  await expect(dialog.getByRole('button', { name: /複製引用/ })).toBeVisible();
  await expect(dialog.getByText(/古籍數字圖書館演示排印本/)).toBeVisible();
  const box = await dialog.getByRole('link', { name: /CSL-JSON/ }).boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(390);
});

test('the reader copies a page citation with volume, page, leaf and permalink, and drops stale tags', async ({
  page,
  context,
}) => {
  const { id } = lunyu();
  const volume = dbGet<{ id: number }>('select id from volumes where book_id = ? order by sort limit 1', id)!;
  const leaf = dbGet<{ id: number }>('select id from pages where volume_id = ? and seq = 3', volume.id)!;
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await login(page, DEMO.reader.loginName, DEMO.reader.password);
  await expect(page).not.toHaveURL(/\/Login/);
  await page.goto(`/Book?catalogId=${id}&fascicleId=${volume.id}&imageId=${leaf.id}`);
  await expect(page.locator('head meta[name="citation_firstpage"]')).toHaveAttribute('content', '3');
  await page.getByRole('button', { name: '复制引用' }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('《論語》（DEMO-經-001），古籍數字圖書館演示排印本，卷一，第 3 页（第三葉）。');
  expect(copied).toContain(`/Book?catalogId=${id}&fascicleId=${volume.id}&imageId=${leaf.id}`);
  // Another page: the served tags named page 3, so they go.
  await page
    .getByRole('button', { name: /下一页/ })
    .first()
    .click();
  await expect(page).not.toHaveURL(new RegExp(`imageId=${leaf.id}$`));
  await expect(page.locator('head [data-citation]')).toHaveCount(0);
});
