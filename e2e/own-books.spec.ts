import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { MSG } from '@guji/shared';
import { makeZip } from '../apps/server/test/zip.ts';
import type { APIRequestContext } from '@playwright/test';
import {
  DEMO,
  expectAccessible,
  expectToast,
  login,
  READING_ROOM_HEADERS,
  registerViaApi,
} from './support.ts';

/** The first leaf of the demo 千字文 (open to everyone over IIIF) as a PNG: a page the OCR can read. */
async function demoLeaf(request: APIRequestContext): Promise<Buffer> {
  const books = (await (await request.get(`/api/books?title=${encodeURIComponent('千字文')}`)).json()) as {
    records: Array<{ catalogId: number }>;
  };
  const volumes = (await (
    await request.get(`/api/books/${books.records[0]!.catalogId}/volumes`)
  ).json()) as Array<{
    manifestUrl: string;
  }>;
  const manifest = await (await request.get(volumes[0]!.manifestUrl)).text();
  const imageId = /\/iiif\/3\/(\d+)/.exec(manifest)![1]!;
  return Buffer.from(await (await request.get(`/iiif/3/${imageId}/full/max/0/default.png`)).body());
}

/** A small page image: paper with a dark bar whose place tells pages apart. */
async function page(index: number): Promise<Buffer> {
  const bar = await sharp({ create: { width: 30, height: 300, channels: 3, background: '#202020' } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 500, height: 360, channels: 3, background: '#e9dcc0' } })
    .composite([{ input: bar, left: 30 + index * 60, top: 30 }])
    .png()
    .toBuffer();
}

test('an own book: created, a volume uploaded as a zip, proofread, refused with a reason, fixed, approved and found by title and text', async ({
  page: browser,
  browser: app,
  request,
}) => {
  const user = await registerViaApi(request);
  await login(browser, user.loginName, user.password);
  await expect(browser).toHaveURL(/\/($|\?)/);
  await browser.getByRole('link', { name: '我的古籍' }).click();
  await expect(browser).toHaveURL(/\/OCRAside\/HholeBook$/);
  await expect(browser.getByText('还没有自己的古籍')).toBeVisible();

  // Add: every required field says so.
  await browser.getByRole('button', { name: '添加古籍' }).click();
  const dialog = browser.getByRole('dialog', { name: '添加古籍' });
  await dialog.getByLabel('卷数').fill('');
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  for (const message of [
    MSG.ownTitleRequired,
    MSG.ownVolumeCountRequired,
    MSG.ownAuthorRequired,
    MSG.ownDynastyRequired,
    MSG.ownEditionTypeRequired,
  ])
    await expect(dialog.getByText(message, { exact: true })).toBeVisible();
  const title = `李氏族谱${user.phone.slice(-4)}`;
  await dialog.getByLabel('书名').fill(title);
  await dialog.getByLabel('卷数').fill('1');
  await dialog.getByLabel('作者').fill('李氏');
  await dialog.getByLabel('版本朝代').fill('清');
  await dialog.getByLabel('版本类型').fill('抄本');
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expectToast(browser, MSG.ownBookAdded);
  const list = browser.getByRole('list', { name: '我的古籍' });
  await expect(list.getByText('未提交')).toBeVisible();
  await expectAccessible(browser);

  // A volume, then its pages as a zip: a wrong file type first, then the real one.
  await list.getByRole('link', { name: '卷册管理' }).click();
  await expect(browser.getByRole('heading', { name: `《${title}》卷册` })).toBeVisible();
  await browser.getByRole('button', { name: '添加卷册' }).click();
  const volumeDialog = browser.getByRole('dialog', { name: '添加卷册' });
  await volumeDialog.getByLabel('卷册名称').fill('卷一');
  await volumeDialog.getByRole('button', { name: /保\s*存/ }).click();
  await expectToast(browser, MSG.ownVolumeAdded);
  const upload = browser.getByLabel('上传「卷一」的 zip 压缩包');
  await upload.setInputFiles({
    name: 'pages.rar',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from('x'),
  });
  await expect(browser.getByRole('alert').filter({ hasText: MSG.ownZipOnly })).toBeVisible();
  await upload.setInputFiles({
    name: 'pages.zip',
    mimeType: 'application/zip',
    buffer: makeZip({ '../escape.png': await page(0) }),
  });
  await expect(browser.getByRole('alert').filter({ hasText: '指向包外' })).toBeVisible();
  await upload.setInputFiles({
    name: 'pages.zip',
    mimeType: 'application/zip',
    buffer: makeZip({ '10.png': await page(2), '2.png': await page(1), '1.png': await demoLeaf(request) }),
  });
  await expectToast(browser, `${MSG.ownUploaded}（3 页）`);
  await expect(browser.getByText('3 页', { exact: true })).toBeVisible();
  await browser.screenshot({ path: 'test-results/tour-30-own-volumes.png', fullPage: true });

  // The volume's pages: natural order, rename, move, recognise one and open it for proofreading.
  await browser.getByRole('link', { name: '图像管理' }).click();
  const grid = browser.getByRole('list', { name: '页面图像' });
  await expect(grid.locator('.page-card-name')).toHaveText(['1. 1', '2. 2', '3. 10']);
  await grid
    .getByRole('listitem')
    .first()
    .getByRole('button', { name: /重命名/ })
    .click();
  await browser.getByRole('dialog', { name: '重命名图像' }).getByLabel('图像名称').fill('序');
  await browser
    .getByRole('dialog', { name: '重命名图像' })
    .getByRole('button', { name: /保\s*存/ })
    .click();
  await expectToast(browser, MSG.ownImageRenamed);
  await grid.getByRole('button', { name: '第 3 页前移' }).click();
  await expectToast(browser, MSG.ownOrderSaved);
  await expect(grid.locator('.page-card-name')).toHaveText(['1. 序', '2. 10', '3. 2']);
  await grid
    .getByRole('listitem')
    .first()
    .getByRole('button', { name: /识\s*别/ })
    .click();
  await expectToast(browser, '已提交识别（1 页）');
  await expect(grid.getByRole('listitem').first().getByText('已识别')).toBeVisible({ timeout: 60_000 });
  await browser.screenshot({ path: 'test-results/tour-32-own-pages.png', fullPage: true });
  await grid.getByRole('listitem').first().getByRole('link', { name: '校对' }).click();
  await expect(browser.getByRole('heading', { name: /文字校对/ })).toBeVisible();
  // Proofread: the first character becomes one found nowhere else, saved as a new version.
  const cell = browser.getByLabel('第 1 列第 1 字', { exact: true });
  await expect(cell).toBeVisible();
  const following = await browser.getByLabel('第 1 列第 2 字', { exact: true }).inputValue();
  await cell.fill('龘');
  await browser.getByRole('button', { name: '保存为新版本' }).click();
  await expectToast(browser, /已保存为第 \d+ 版/);
  await browser.goBack();
  await browser.goBack();

  // Submit for publication.
  await browser.getByRole('link', { name: '整本古籍' }).click();
  await list.getByRole('checkbox', { name: `选择《${title}》` }).check();
  await browser.getByRole('button', { name: /提交发布/ }).click();
  await expectToast(browser, MSG.ownSubmitted);
  await expect(list.getByText('审核中')).toBeVisible();

  // The reviewer refuses with a reason.
  const staff = await app.newContext();
  const reviewer = await staff.newPage();
  await login(reviewer, DEMO.reviewer.loginName, DEMO.reviewer.password);
  await expect(reviewer).toHaveURL(/\/($|\?)/);
  await reviewer.goto('/PersonalPage/OwnBookAudit');
  const row = reviewer
    .getByRole('list', { name: '用户古籍' })
    .getByRole('listitem')
    .filter({ hasText: title });
  // The reviewer reads it first.
  await row.getByRole('link', { name: '查看' }).click();
  await expect(reviewer.getByRole('region', { name: '第 1 页图像' })).toHaveAttribute('data-drawn', 'true');
  await reviewer.goBack();
  await row.getByRole('button', { name: /^拒\s*绝$/ }).click();
  const refuse = reviewer.getByRole('dialog');
  await refuse.getByRole('button', { name: /确\s*认/ }).click();
  await expect(refuse.getByRole('alert')).toHaveText(MSG.refuseReasonRequired);
  await refuse.getByLabel('原因').fill('请补充版本说明');
  await refuse.getByRole('button', { name: /确\s*认/ }).click();
  await expectToast(reviewer, MSG.reservationRefused);

  // The owner sees why, fixes the record and submits again.
  await browser.reload();
  await expect(list.getByText('未通过')).toBeVisible();
  await expect(list.getByText('原因：请补充版本说明')).toBeVisible();
  await list.getByRole('button', { name: /编\s*辑/ }).click();
  await browser.getByRole('dialog', { name: '编辑古籍' }).getByLabel('版本类型').fill('清抄本（道光年间）');
  await browser
    .getByRole('dialog', { name: '编辑古籍' })
    .getByRole('button', { name: /保\s*存/ })
    .click();
  await expectToast(browser, MSG.ownBookChanged);
  await list.getByRole('checkbox', { name: `选择《${title}》` }).check();
  await browser.getByRole('button', { name: /提交发布/ }).click();
  await expectToast(browser, MSG.ownSubmitted);
  await browser.screenshot({ path: 'test-results/tour-31-own-books.png', fullPage: true });

  // Approved, it is public and found by title search.
  await reviewer.reload();
  await row.getByRole('button', { name: /^通\s*过$/ }).click();
  // Publishing asks for the library's call number and class.
  const publish = reviewer.getByRole('dialog', { name: `发布：${title}` });
  await publish.getByLabel('索书号').fill('E2E-譜-001');
  await publish.getByLabel('分类').click();
  await reviewer.locator('.ant-select-tree-title', { hasText: '（JING）' }).first().click();
  await reviewer.screenshot({ path: 'test-results/own-publish-record.png' });
  await publish.getByRole('button', { name: '通过并发布' }).click();
  await expectToast(reviewer, MSG.ownPublished);
  await staff.close();
  const found = (await (
    await browser.request.get(`/api/books?title=${encodeURIComponent(title)}`)
  ).json()) as {
    records: Array<{ callNumber: string | null; classCode: string | null }>;
  };
  expect(found.records[0]).toMatchObject({ callNumber: 'E2E-譜-001', classCode: 'JING' });
  await browser.goto(`/SearchPage?title=${encodeURIComponent(title)}`);
  await expect(browser.getByRole('link', { name: title }).first()).toBeVisible();

  // And its proofread text by full-text search, in the reading room.
  const room = await app.newContext({ extraHTTPHeaders: READING_ROOM_HEADERS });
  const inRoom = await room.newPage();
  await login(inRoom, user.loginName, user.password);
  await expect(inRoom).toHaveURL(/\/($|\?)/);
  await inRoom.goto(`/AdvancedSearch?type=1&page=1&text=${encodeURIComponent('龘' + following)}`);
  const hits = inRoom.getByRole('region', { name: '全文检索结果' });
  await expect(hits.getByText('约 1 条结果')).toBeVisible();
  await expect(hits.getByRole('article').first()).toContainText(title);
  await room.close();

  // Published, it is frozen for its owner until withdrawn; withdrawn, it leaves the catalogue.
  await browser.goto('/OCRAside/HholeBook');
  const mine = list.getByRole('listitem').filter({ hasText: title });
  await expect(mine.getByText('已公开')).toBeVisible();
  await expect(mine.getByRole('button', { name: /编\s*辑/ })).toBeDisabled();
  await expect(mine.getByRole('button', { name: /删\s*除/ })).toBeDisabled();
  await browser.setViewportSize({ width: 390, height: 844 });
  const overflow = await browser.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await browser.screenshot({ path: 'test-results/tour-32-own-book-published-phone.png', fullPage: true });
  await browser.setViewportSize({ width: 1280, height: 800 });
  await mine.getByRole('button', { name: '撤回出版' }).click();
  await browser.getByRole('button', { name: /^撤\s*回$/ }).click();
  await expectToast(browser, MSG.ownUnpublished);
  await expect(mine.getByText('未提交')).toBeVisible();
  await expect(mine.getByRole('button', { name: /编\s*辑/ })).toBeEnabled();
  await browser.goto(`/SearchPage?title=${encodeURIComponent(title)}`);
  await expect(browser.getByRole('link', { name: title })).toHaveCount(0);
});

test('a single image: dropped in, recognised, exported as text and ALTO, renamed and deleted', async ({
  page: browser,
  request,
}) => {
  const user = await registerViaApi(request);
  await login(browser, user.loginName, user.password);
  await expect(browser).toHaveURL(/\/($|\?)/);
  await browser.goto('/OCRAside/Single');
  await expect(browser.getByRole('heading', { name: '单张图像', level: 1 })).toBeVisible();
  await expect(browser.getByText('还没有单张图像')).toBeVisible();
  await browser.locator('.own-singles input[type=file]').setInputFiles([
    { name: '拓片甲.png', mimeType: 'image/png', buffer: await page(0) },
    { name: '拓片乙.png', mimeType: 'image/png', buffer: await page(1) },
  ]);
  const grid = browser.getByRole('list', { name: '单张图像' });
  await expect(grid.getByRole('listitem')).toHaveCount(2);
  const first = grid.getByRole('listitem').filter({ hasText: '拓片甲' });
  await first.getByRole('button', { name: /识\s*别/ }).click();
  await expect(first.getByText('已识别')).toBeVisible({ timeout: 60_000 });
  const text = browser.waitForEvent('download');
  await first.getByRole('link', { name: 'TXT' }).click();
  expect((await text).suggestedFilename()).toMatch(/\.txt$/);
  const alto = browser.waitForEvent('download');
  await first.getByRole('link', { name: 'ALTO' }).click();
  expect((await alto).suggestedFilename()).toMatch(/\.alto\.xml$/);
  await browser.screenshot({ path: 'test-results/tour-33-singles.png', fullPage: true });
  await first.getByRole('button', { name: /重命名/ }).click();
  await browser.getByRole('dialog', { name: '重命名图像' }).getByLabel('图像名称').fill('碑额');
  await browser
    .getByRole('dialog', { name: '重命名图像' })
    .getByRole('button', { name: /保\s*存/ })
    .click();
  await expectToast(browser, MSG.ownImageRenamed);
  const renamed = grid.getByRole('listitem').filter({ hasText: '碑额' });
  await renamed.getByRole('button', { name: /删\s*除/ }).click();
  await browser.locator('.ant-popconfirm-buttons .ant-btn-primary').click();
  await expectToast(browser, MSG.deleteSuccess);
  await expect(grid.getByRole('listitem')).toHaveCount(1);
  await expectAccessible(browser);
});
