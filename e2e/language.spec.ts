import { expect, test, type Page } from '@playwright/test';
import { dbGet, DEMO, login } from './support.ts';

/**
 * Issue 16: the 简/繁 toggle converts the interface, never the books' own data (titles, call numbers,
 * recognised text…), which shows as recorded in both scripts; the reader's text pane has its own
 * option 「简体显示」 that shows the page's text in simplified characters.
 */

const lunyuId = () => dbGet<{ id: number }>('select id from books where title = ?', '論語')!.id;

interface OcrBody {
  ocr: { ocr_res: { content: { words: { word: string }[] }[] } } | null;
}

/** The volume and page of 論語 whose recognised text holds `text`, through the reader's own API. */
async function findPage(page: Page, catalogId: number, text: string) {
  const first = await page.request.get(`/api/reader?catalogId=${catalogId}`);
  expect(first.ok()).toBe(true);
  const { volumes } = (await first.json()) as { volumes: { fascicleId: number }[] };
  for (const { fascicleId } of volumes) {
    const reader = await page.request.get(`/api/reader?catalogId=${catalogId}&fascicleId=${fascicleId}`);
    const { pages } = (await reader.json()) as { pages: { imageId: number }[] };
    for (const [index, { imageId }] of pages.entries()) {
      const body = (await (await page.request.get(`/api/pages/${imageId}/ocr`)).json()) as OcrBody;
      const words = body.ocr?.ocr_res.content.flatMap((line) => line.words.map((w) => w.word)).join('');
      if (words?.includes(text)) return { fascicleId, imageId, pageNumber: index + 1, words };
    }
  }
  throw new Error(`no page of 論語 holds ${text}`);
}

/** Traditional characters of the demo texts and their simplified forms. */
const SIMPLIFIED: Record<string, string> = {
  問: '问',
  學: '学',
  禮: '礼',
  樂: '乐',
  與: '与',
  無: '无',
  謂: '谓',
  爾: '尔',
  說: '说',
  為: '为',
  時: '时',
  見: '见',
  觀: '观',
  聞: '闻',
  則: '则',
  過: '过',
  國: '国',
};

test('简/繁 converts the interface only; the text pane shows simplified on its own option', async ({
  page,
}) => {
  await login(page, DEMO.reader.loginName, DEMO.reader.password);
  await expect(page).toHaveURL(/\/($|\?)/);
  const catalogId = lunyuId();
  const target = await findPage(page, catalogId, '夏后氏');

  // Simplified interface: the book's title and call number stay as recorded (traditional).
  await page.goto(`/SearchPage/${catalogId}`);
  await expect(page.getByRole('heading', { name: '論語', level: 1 })).toBeVisible();
  await expect(page.getByText('索书号', { exact: true })).toBeVisible();
  await expect(page.getByText('DEMO-經-001', { exact: true })).toBeVisible();
  await expect(page.getByRole('tree').getByText('學而第一')).toBeVisible();

  // Traditional interface: labels convert, the book's data does not.
  await page.evaluate(() => localStorage.setItem('language', 't'));
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hant');
  await expect(page.getByText('索書號', { exact: true })).toBeVisible();
  await expect(page.getByText('DEMO-經-001', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: '論語', level: 1 })).toBeVisible();

  // The reader's text pane: 夏后氏 as recorded, not 夏後氏.
  await page.goto(`/Book?catalogId=${catalogId}&fascicleId=${target.fascicleId}&imageId=${target.imageId}`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hant');
  await page.locator('.ant-segmented-item', { hasText: '文字' }).click();
  const pane = page.getByRole('region', { name: new RegExp(`第 ${target.pageNumber} [页頁]文字`) });
  const sheet = pane.locator('.text-pane-body');
  await expect(sheet).toBeVisible();
  await expect(page.locator('.reader-title-call')).toHaveText('DEMO-經-001');
  const recorded = target.words;
  await expect.poll(() => sheet.evaluate((el) => el.textContent)).toBe(recorded);
  expect(recorded).toContain('夏后氏');
  expect(recorded).not.toContain('夏後氏');
  await page.screenshot({ path: 'test-results/language-pane-traditional.png' });

  // 「简体显示」 (a label of the interface, so 簡體顯示 here): the pane's text in simplified characters.
  const traditional = Object.keys(SIMPLIFIED).find((char) => recorded.includes(char));
  expect(traditional, 'a traditional character on the page').toBeTruthy();
  const option = page.getByRole('switch', { name: /简体显示|簡體顯示/ });
  await expect(option).not.toBeChecked();
  await option.click();
  await expect(option).toBeChecked();
  await expect.poll(() => sheet.evaluate((el) => el.textContent)).toContain(SIMPLIFIED[traditional!]);
  expect(await sheet.evaluate((el) => el.textContent)).not.toContain(traditional);
  expect(await page.evaluate(() => localStorage.getItem('reader.paneSimplified'))).toBe('1');
  // Only the pane: the interface stays traditional, the call number as recorded.
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hant');
  await expect(page.locator('.reader-title-call')).toHaveText('DEMO-經-001');
  await page.screenshot({ path: 'test-results/language-pane-simplified.png' });

  // Remembered across a reload; off again shows the text as recorded.
  await page.reload();
  await page.locator('.ant-segmented-item', { hasText: '文字' }).click();
  await expect(option).toBeChecked();
  await expect.poll(() => sheet.evaluate((el) => el.textContent)).toContain(SIMPLIFIED[traditional!]);
  await option.click();
  await expect.poll(() => sheet.evaluate((el) => el.textContent)).toBe(recorded);
  expect(await page.evaluate(() => localStorage.getItem('reader.paneSimplified'))).toBe('0');
  await page.evaluate(() => localStorage.setItem('language', 's'));
});

test('复制引用 copies a citation of the page with its permalink and IIIF canvas; 复制全文 the text with it', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await login(page, DEMO.reader.loginName, DEMO.reader.password);
  await expect(page).toHaveURL(/\/($|\?)/);
  const catalogId = lunyuId();
  const first = (await (await page.request.get(`/api/reader?catalogId=${catalogId}`)).json()) as {
    volume: { fascicleId: number; name: string };
    pages: { imageId: number }[];
  };
  const imageId = first.pages[1]!.imageId;
  await page.goto(`/Book?catalogId=${catalogId}&fascicleId=${first.volume.fascicleId}&imageId=${imageId}`);
  await expect(page.getByRole('region', { name: '第 2 页图像' })).toHaveAttribute('data-drawn', 'true');
  await page.getByRole('button', { name: '复制引用' }).click();
  const citation = await page.evaluate(() => navigator.clipboard.readText());
  const origin = new URL(page.url()).origin;
  expect(citation).toContain(`《論語》`);
  expect(citation).toContain(`${first.volume.name}，第 2 页`);
  expect(citation).toContain(
    `${origin}/Book?catalogId=${catalogId}&fascicleId=${first.volume.fascicleId}&imageId=${imageId}`,
  );
  expect(citation).toContain(
    `${origin}/iiif/presentation/volumes/${first.volume.fascicleId}/canvas/${imageId}`,
  );
  // 复制全文 in the text pane: the page's text, column by column, then the same citation.
  await page.locator('.ant-segmented-item', { hasText: '文字' }).first().click();
  const { ocr } = (await (await page.request.get(`/api/pages/${imageId}/ocr`)).json()) as {
    ocr: { ocr_res: { content: { words: { text: string }[] }[] } };
  };
  const firstColumn = ocr.ocr_res.content.find((line) => line.words.length > 0)!;
  await page.getByRole('button', { name: '复制全文' }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain(firstColumn.words.map((word) => word.text).join(''));
  expect(copied.indexOf(`《論語》`)).toBeGreaterThan(copied.indexOf(firstColumn.words[0]!.text));
  expect(copied).toContain(`${first.volume.name}，第 2 页`);
  // The permalink opens the same page.
  const permalink = /https?:\/\/\S+?\/Book\?\S+?imageId=\d+/.exec(citation)![0];
  await page.goto(permalink);
  await expect(page.getByRole('region', { name: '第 2 页图像' })).toBeVisible();
});
