import { expect, test, type Page } from '@playwright/test';
import { MSG } from '@guji/shared';
import { DEMO, expectAccessible, expectToast, login, registerViaApi } from './support.ts';

/** Picks an option of an antd select by its visible text. */
async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByLabel(label).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).click();
  await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
}

/** Opens a demo book's page from the title search (titles show in simplified characters). */
async function openBook(page: Page, title: string, shown: string): Promise<void> {
  await page.goto(`/SearchPage?title=${encodeURIComponent(title)}`);
  await page.getByRole('link', { name: shown }).first().click();
  await expect(page.getByRole('heading', { name: shown, level: 1 })).toBeVisible();
}

async function channel(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: '个人中心菜单' }).getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
}

test('collections, comments, a page download and footprints, each in its channel', async ({
  page,
  request,
}) => {
  const user = await registerViaApi(request);
  await login(page, user.loginName, user.password);
  await expect(page).toHaveURL(/\/($|\?)/);

  // /PersonalPage opens Collection, empty at first.
  await page.goto('/PersonalPage');
  await expect(page).toHaveURL(/\/PersonalPage\/Collection$/);
  await expect(page.getByText('还没有收藏的古籍')).toBeVisible();
  await expectAccessible(page);

  // Collect on the book page: the state shows and toggles without a reload.
  await openBook(page, '論語', '論語');
  const collect = page.getByRole('button', { name: '收藏' });
  await collect.click();
  await expectToast(page, MSG.collected);
  await expect(page.getByRole('button', { name: '已收藏' })).toHaveAttribute('aria-pressed', 'true');
  await page.goto('/PersonalPage/Collection');
  const collections = page.getByRole('list', { name: '我的收藏' });
  await expect(collections.getByRole('link', { name: '論語' })).toBeVisible();
  await expect(page.getByText('共 1 条')).toBeVisible();
  await page.screenshot({ path: 'test-results/tour-10-collection.png', fullPage: true });
  await collections.getByRole('link', { name: '論語' }).click();
  await page.getByRole('button', { name: '已收藏' }).click();
  await expectToast(page, MSG.collectCancelled);
  await expect(page.getByRole('button', { name: '收藏' })).toHaveAttribute('aria-pressed', 'false');

  // Comments: the empty message, then one posted, newest first with the nickname; deleted from the channel.
  await page.getByRole('button', { name: '发表评论' }).click();
  await expect(page.getByRole('alert').filter({ hasText: MSG.commentEmpty })).toBeVisible();
  await page.getByLabel('评论内容').fill('此本字迹清晰，校勘精审。');
  await page.getByRole('button', { name: '发表评论' }).click();
  await expectToast(page, MSG.commentPosted);
  const comments = page.getByRole('list', { name: '评论列表' });
  await expect(comments.getByText('此本字迹清晰，校勘精审。')).toBeVisible();
  await expect(comments.getByText(user.loginName)).toBeVisible();
  await page.screenshot({ path: 'test-results/tour-11-book-comments.png', fullPage: true });
  await page.goto('/PersonalPage/Comment');
  await expect(
    page.getByRole('list', { name: '我的评论' }).getByText('此本字迹清晰，校勘精审。'),
  ).toBeVisible();
  await page.getByRole('button', { name: /删\s*除/ }).click();
  await page.locator('.ant-popconfirm-buttons .ant-btn-primary').click();
  await expectToast(page, MSG.deleteSuccess);
  await expect(page.getByText('还没有发表评论')).toBeVisible();

  // The reader: download this page as JPEG; it is recorded and can be downloaded again.
  await openBook(page, '論語', '論語');
  await page.getByRole('button', { name: '阅读本册' }).click();
  await expect(page.getByRole('region', { name: '第 1 页图像' })).toHaveAttribute('data-drawn', 'true');
  await page.getByRole('button', { name: '下载' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: '本页图像（JPEG）' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.jpg$/);
  // Turn a page and stay on it: the footprint keeps the last page.
  await page.getByRole('button', { name: /下一页/ }).click();
  await expect(page.getByRole('region', { name: '第 2 页图像' })).toHaveAttribute('data-drawn', 'true');
  // The reader reports the page after a second on it: wait until the footprint has it.
  await expect
    .poll(async () => {
      const mine = (await (await page.request.get('/api/me/footprints')).json()) as {
        records: Array<{ pageNumber: number | null }>;
      };
      return mine.records[0]?.pageNumber;
    })
    .toBe(2);

  await page.goto('/PersonalPage/Download');
  const downloads = page.getByRole('list', { name: '我的下载' });
  await expect(downloads.getByText('页面图像（JPEG）')).toBeVisible();
  await expect(downloads.getByText(/第 1 页/)).toBeVisible();
  const again = page.waitForEvent('download');
  await downloads.getByRole('link', { name: '再次下载' }).click();
  expect((await again).suggestedFilename()).toMatch(/\.jpg$/);

  await channel(page, '我的足迹');
  const track = page.getByRole('list', { name: '我的足迹' });
  await expect(track.getByRole('link', { name: '論語' })).toBeVisible();
  await expect(track.getByText('读到第 2 页')).toBeVisible();
  await page.screenshot({ path: 'test-results/tour-12-track.png', fullPage: true });
  await track.getByRole('button', { name: /删\s*除/ }).click();
  await expectToast(page, MSG.deleteSuccess);
  await expect(page.getByText('还没有浏览记录')).toBeVisible();
});

test('a note drawn on the page, reopened from Notation, edited and deleted', async ({ page, request }) => {
  const user = await registerViaApi(request);
  await login(page, user.loginName, user.password);
  await expect(page).toHaveURL(/\/($|\?)/);
  await openBook(page, '大學', '大學');
  await page.getByRole('button', { name: '阅读本册' }).click();
  const image = page.getByRole('region', { name: '第 1 页图像' });
  await expect(image).toHaveAttribute('data-drawn', 'true');

  await page.getByRole('button', { name: '批注' }).click();
  await expect(image).toHaveAttribute('data-drawing', 'true');
  const box = (await image.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.3);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.5, { steps: 5 });
  await page.mouse.up();
  const dialog = page.getByRole('dialog', { name: '新建批注' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(dialog.getByRole('alert')).toHaveText(MSG.noteEmpty);
  await dialog.getByLabel('批注内容').fill('大学之道：朱子以为程子所定');
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expectToast(page, MSG.noteSaved);
  const overlay = page.getByRole('button', { name: /^批注：大学之道/ });
  await expect(overlay).toBeVisible();
  await page.screenshot({ path: 'test-results/tour-13-reader-note.png' });

  // The Notation channel lists it and opens the reader on its page, where the note is again.
  await page.goto('/PersonalPage/Notation');
  const notes = page.getByRole('list', { name: '我的批注' });
  await expect(notes.getByText('大学之道：朱子以为程子所定')).toBeVisible();
  await expect(notes.getByText(/第 1 页/)).toBeVisible();
  await notes.getByRole('link', { name: '打开' }).click();
  await expect(page.getByRole('region', { name: '第 1 页图像' })).toHaveAttribute('data-drawn', 'true');
  await page.getByRole('button', { name: /^批注：大学之道/ }).click();
  const edit = page.getByRole('dialog', { name: '编辑批注' });
  await expect(edit.getByLabel('批注内容')).toHaveValue('大学之道：朱子以为程子所定');
  await edit.getByLabel('批注内容').fill('大学之道在明明德');
  await edit.getByRole('button', { name: /保\s*存/ }).click();
  await expectToast(page, MSG.noteSaved);
  await page.getByRole('button', { name: /^批注：大学之道在明明德/ }).click();
  await page
    .getByRole('dialog', { name: '编辑批注' })
    .getByRole('button', { name: /删\s*除/ })
    .click();
  await page.locator('.ant-popconfirm-buttons .ant-btn-primary').click();
  await expectToast(page, MSG.deleteSuccess);
  await expect(page.getByRole('button', { name: /^批注：/ })).toHaveCount(0);
});

test('reservations: same day auto-approved and readable; a longer one refused with a reason, another approved, one withdrawn', async ({
  page,
  browser,
  request,
}) => {
  const user = await registerViaApi(request);
  await login(page, user.loginName, user.password);
  await expect(page).toHaveURL(/\/($|\?)/);

  // 孟子 is for the reading room: not readable from here.
  await page.goto('/PersonalPage/Vip');
  await expect(page.getByText('暂无古籍特权')).toBeVisible();
  await channel(page, '预约申请');
  await page.getByRole('button', { name: '提交申请' }).click();
  await expect(page.getByText(MSG.reservationCallNumberRequired)).toBeVisible();
  await expect(page.getByText(MSG.reservationTitleRequired)).toBeVisible();
  await expect(page.getByText(MSG.reservationDurationRequired)).toBeVisible();

  // Typing the call number looks up the title.
  const apply = async (callNumber: string, title: string, duration: string, reason?: string) => {
    // The form empties itself when the previous application is saved; the toast seen may still be the
    // one before, so wait for the empty form rather than type into one about to be reset.
    await expect(page.getByRole('combobox', { name: '索书号' })).toHaveValue('');
    await page.getByRole('combobox', { name: '索书号' }).fill(callNumber);
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: title }).click();
    await expect(page.getByLabel('书名')).toHaveValue(title);
    await choose(page, '借阅时长', duration);
    if (reason !== undefined) await page.getByLabel('详细原因').fill(reason);
    await page.getByRole('button', { name: '提交申请' }).click();
  };
  await apply('DEMO-經-002', '孟子', '当日');
  await expectToast(page, MSG.reservationAutoApproved);
  const mine = page.getByRole('list', { name: '我的申请' });
  await expect(mine.getByText('审核通过')).toBeVisible();

  await channel(page, '古籍特权');
  const vip = page.getByRole('list', { name: '古籍特权' });
  await expect(vip.getByRole('link', { name: '孟子' })).toBeVisible();
  await expect(vip.getByText(/有效期至/)).toBeVisible();
  await vip.getByRole('link', { name: '阅读' }).click();
  await expect(page.getByRole('region', { name: '第 1 页图像' })).toHaveAttribute('data-drawn', 'true');

  // A longer duration needs a reason, and waits for review.
  await page.goto('/PersonalPage/Appointment');
  await page.getByRole('combobox', { name: '索书号' }).fill('DEMO-經-004');
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '中庸' }).click();
  await choose(page, '借阅时长', '七日');
  await page.getByRole('button', { name: '提交申请' }).click();
  await expect(page.getByText(MSG.reservationReasonRequired)).toBeVisible();
  await page.getByLabel('详细原因').fill('撰写论文需要校勘');
  await page.getByRole('button', { name: '提交申请' }).click();
  await expectToast(page, MSG.reservationSaved);
  await apply('DEMO-經-004', '中庸', '七日', '再次比对异文');
  await expectToast(page, MSG.reservationSaved);
  await apply('DEMO-經-004', '中庸', '七日', '临时申请，稍后撤回');
  await expectToast(page, MSG.reservationSaved);
  await expect(mine.getByText('未审核')).toHaveCount(3);

  // Withdraw the newest while it is undecided.
  await mine
    .getByRole('listitem')
    .first()
    .getByRole('button', { name: /撤\s*回/ })
    .click();
  await page.locator('.ant-popconfirm-buttons .ant-btn-primary').click();
  await expectToast(page, MSG.reservationWithdrawn);
  await expect(mine.getByText('已撤回')).toBeVisible();
  await page.screenshot({ path: 'test-results/tour-14-appointment.png', fullPage: true });

  // The reviewer refuses one with a reason (required) and approves the other.
  const staff = await browser.newContext();
  const reviewer = await staff.newPage();
  await login(reviewer, DEMO.reviewer.loginName, DEMO.reviewer.password);
  await expect(reviewer).toHaveURL(/\/($|\?)/);
  await reviewer.goto('/PersonalPage/AppointmentAudit');
  const queue = reviewer.getByRole('list', { name: '预约申请列表' });
  const first = queue.getByRole('listitem').filter({ hasText: '撰写论文需要校勘' });
  const second = queue.getByRole('listitem').filter({ hasText: '再次比对异文' });
  await first.getByRole('button', { name: '开始审核' }).click();
  await expect(first.getByText('审核中')).toBeVisible();
  await first.getByRole('button', { name: /^拒\s*绝$/ }).click();
  const refuse = reviewer.getByRole('dialog');
  await refuse.getByRole('button', { name: '确认拒绝' }).click();
  await expect(refuse.getByRole('alert')).toHaveText(MSG.refuseReasonRequired);
  await refuse.getByLabel('拒绝原因').fill('善本暂不外借，请到馆阅览');
  await refuse.getByRole('button', { name: '确认拒绝' }).click();
  await expectToast(reviewer, MSG.reservationRefused);
  await reviewer.screenshot({ path: 'test-results/tour-15-review.png', fullPage: true });
  await second.getByRole('button', { name: /^通\s*过$/ }).click();
  await expectToast(reviewer, MSG.reservationApproved);
  await staff.close();

  // The applicant sees the refusal with its reason, and 中庸 among the privileges.
  await page.reload();
  await expect(mine.getByText('审核未通过')).toBeVisible();
  await expect(mine.getByText('拒绝原因：善本暂不外借，请到馆阅览')).toBeVisible();
  await channel(page, '古籍特权');
  await expect(
    page.getByRole('list', { name: '古籍特权' }).getByRole('link', { name: '中庸' }),
  ).toBeVisible();
  await expect(page.getByText('共 2 条')).toBeVisible();
});

test('personal channels in traditional characters and a narrow window', async ({ page, request }) => {
  const user = await registerViaApi(request);
  await page.setViewportSize({ width: 375, height: 800 });
  await login(page, user.loginName, user.password);
  await expect(page).toHaveURL(/\/($|\?)/);
  await page.getByRole('button', { name: '繁體中文' }).click();
  await page.goto('/PersonalPage/Appointment');
  await expect(page.getByRole('heading', { name: '預約申請', level: 1 })).toBeVisible();
  await expect(page.getByText('還沒有預約申請')).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: 'test-results/mobile-appointment-traditional.png', fullPage: true });
  await expectAccessible(page);
  await page.goto(`/SearchPage?title=${encodeURIComponent('論語')}`);
  await page.getByRole('link', { name: '論語' }).first().click();
  await expect(page.getByRole('heading', { name: '讀者評論（0）' })).toBeVisible();
  await page.screenshot({ path: 'test-results/mobile-book-comments-traditional.png', fullPage: true });
  await page.evaluate(() => localStorage.setItem('language', 's'));
});

test('a book closed to online reading offers 申请阅览, which opens the reservation form filled with it', async ({
  page,
  request,
}) => {
  const user = await registerViaApi(request);
  await login(page, user.loginName, user.password);
  await expect(page).toHaveURL(/\/($|\?)/);
  const found: unknown = await (await request.get(`/api/books?title=${encodeURIComponent('孟子')}`)).json();
  const mengzi = (found as { records: Array<{ catalogId: number; title: string; callNumber: string }> })
    .records[0]!;
  await page.goto(`/SearchPage/${mengzi.catalogId}`);
  await page.getByRole('link', { name: '申请阅览' }).click();
  await expect(page).toHaveURL(/\/PersonalPage\/Appointment\?/);
  await expect(page.getByRole('combobox', { name: '索书号' })).toHaveValue(mengzi.callNumber);
  await expect(page.getByLabel('书名')).toHaveValue(mengzi.title);
  // An open book offers no application.
  const open: unknown = await (await request.get(`/api/books?title=${encodeURIComponent('大學')}`)).json();
  await page.goto(`/SearchPage/${(open as { records: Array<{ catalogId: number }> }).records[0]!.catalogId}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: '申请阅览' })).toHaveCount(0);
});
