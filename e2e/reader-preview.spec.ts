import { expect, test, type Page } from '@playwright/test';
import { dbGet, DEMO, login } from './support.ts';

/**
 * Issue 32 part 4, the page within 1 s: a signed-in reader opening a /Book address with an imageId sees
 * the page image before the application has loaded (the server's preload link asks for it before the
 * scripts, index.html's inline script shows it), in the very place the viewer then draws it, and the
 * early image makes way for the viewer.
 * The application's entry script is held back in these tests so what index.html does alone can be seen.
 */

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** The first page of a demo book's first volume. */
function firstPage(title: string): { catalogId: number; fascicleId: number; imageId: number } {
  return dbGet<{ catalogId: number; fascicleId: number; imageId: number }>(
    `select b.id as catalogId, v.id as fascicleId, p.id as imageId from books b
     join volumes v on v.book_id = b.id join pages p on p.volume_id = v.id
     where b.title = ? order by v.id, p.seq limit 1`,
    title,
  )!;
}

const address = (at: { catalogId: number; fascicleId: number; imageId: number }, extra = '') =>
  `/Book?catalogId=${at.catalogId}&fascicleId=${at.fascicleId}&imageId=${at.imageId}${extra}`;

/** Holds the application's entry script until the returned function is called. */
async function holdApplication(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

const rectOf = (page: Page, selector: string) =>
  page.locator(selector).evaluate((element) => element.getBoundingClientRect().toJSON() as DOMRect);

for (const [name, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  test(`the page is shown before the application loads, where the viewer draws it (${name})`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await login(page, DEMO.reader.loginName, DEMO.reader.password);
    await expect(page).toHaveURL(/\/($|\?)/);
    const shiji = firstPage('史記');
    const release = await holdApplication(page);
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    await page.goto(address(shiji), { waitUntil: 'commit' });

    const early = page.locator('#reader-preview img');
    await expect(early).toHaveJSProperty('complete', true);
    expect(await early.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(100);
    // The image shown is the page at one of the widths the server offered, asked for before the scripts.
    const shown = new URL(await early.evaluate((image: HTMLImageElement) => image.currentSrc)).pathname;
    expect(shown).toMatch(new RegExp(`^/iiif/3/${shiji.imageId}/full/\\d+,/0/default\\.jpg$`));
    const firstScript = asked.findIndex((path) => path.endsWith('.js'));
    expect(asked.indexOf(shown)).toBeGreaterThanOrEqual(0);
    expect(asked.indexOf(shown)).toBeLessThan(firstScript);
    const placed = await rectOf(page, '#reader-preview');
    // Nothing of the application is on the page yet: the image stands alone.
    await expect(page.locator('#root')).toBeEmpty();

    release();
    const pane = page.getByRole('region', { name: '第 1 页图像' });
    await expect(pane).toHaveAttribute('data-drawn', 'true');
    await expect(page.locator('#reader-preview')).toHaveCount(0);
    const drawn = await pane.evaluate((element) => element.getBoundingClientRect().toJSON() as DOMRect);
    for (const side of ['left', 'top', 'width', 'height'] as const)
      expect(Math.abs(placed[side] - drawn[side]), side).toBeLessThanOrEqual(1);
  });
}

test('no early image for a visitor, for another mode, or for a page the reader may not read', async ({
  page,
}) => {
  await page.setViewportSize(DESKTOP);
  const shiji = firstPage('史記');
  // Whether index.html made an early image at any time on any page of this test.
  await page.addInitScript(() => {
    new MutationObserver(() => {
      if (document.getElementById('reader-preview')) sessionStorage.setItem('early', 'seen');
    }).observe(document, { subtree: true, childList: true });
  });
  const seen = () => page.evaluate(() => sessionStorage.getItem('early'));
  // A visitor: the server does not mark the page, nothing is asked for.
  await page.goto(address(shiji));
  await expect(page).toHaveURL(/\/Login/);
  expect(await seen()).toBeNull();

  await login(page, DEMO.reader.loginName, DEMO.reader.password);
  await expect(page).toHaveURL(/\/($|\?)/);
  // The text mode shows no image first.
  await page.goto(address(shiji, '&mode=text'));
  await expect(page.getByRole('region', { name: '第 1 页文字' })).toBeVisible();
  expect(await seen()).toBeNull();

  // 孟子 is not open for online reading: the server offers no image, nothing is asked for, and the
  // reader's refusal is not covered.
  const mengzi = firstPage('孟子');
  const images: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes(`/iiif/3/${mengzi.imageId}/full/`)) images.push(request.url());
  });
  await page.goto(address(mengzi));
  await expect(page.locator('.reader-refused')).toBeVisible();
  expect(await seen()).toBeNull();
  expect(images).toEqual([]);
});
