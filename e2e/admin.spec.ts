import { expect, test, type Page } from '@playwright/test';
import {
  ALONE,
  animationsDone,
  dbRun,
  DEMO,
  expectAccessible,
  expectToast,
  login,
  registerViaApi,
} from './support.ts';

/** A section link of the console's navigation. */
const section = (page: Page, name: string) =>
  page.getByRole('navigation', { name: '管理后台栏目' }).getByRole('link', { name, exact: true });

// Site-wide: the footer every page shows changes, so this runs after the tests that run side by side.
test(
  'console: a site setting changes the footer, a failed job is retried, the change is in the audit log',
  { tag: ALONE },
  async ({ page }) => {
    await login(page, 'admin', 'Guanli#2026');
    await expect(page).toHaveURL(/\/($|\?)/);
    await page.getByRole('link', { name: '管理后台' }).click();
    await expect(page.getByRole('heading', { name: '管理后台', level: 1 })).toBeVisible();

    // The dashboard opens first: the range's totals and a chart per figure, with the numbers as a table.
    await expect(page.getByText('页面浏览', { exact: true })).toBeVisible();
    await expect(page.getByRole('img', { name: /^每日读者与页面浏览：/ })).toBeVisible();
    await expect(page.getByRole('img', { name: /^每日 OCR 识别页数：/ })).toBeVisible();
    await page.locator('.ant-segmented-item', { hasText: '近 7 天' }).click();
    const ocrChart = page.getByRole('figure').filter({ hasText: '每日 OCR 识别页数' });
    await ocrChart.getByRole('button', { name: '查看数据表' }).click();
    await expect(ocrChart.getByRole('row')).toHaveCount(8);
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/tour-39-dashboard.png', fullPage: true });

    // Site settings: the footer follows at once.
    await section(page, '站点设置').click();
    const copyright = page.getByLabel('页脚版权信息');
    const before = await copyright.inputValue();
    await copyright.fill('版权所有 © 演示古籍馆');
    await page.getByRole('button', { name: '保存设置' }).click();
    await expectToast(page, '站点设置已保存');
    await expect(page.getByRole('contentinfo').getByText('版权所有 © 演示古籍馆')).toBeVisible();

    // A failed job, retried from the monitor, runs again.
    const now = new Date().toISOString();
    dbRun(
      `insert into jobs (name, data, status, attempts, max_attempts, run_at, progress, last_error, created_at, updated_at)
     values ('images.pyramid', '{"pageId":1}', 'failed', 3, 3, ?, 0, '测试：磁盘已满', ?, ?)`,
      now,
      now,
      now,
    );
    await section(page, '任务监控').click();
    const row = page.getByRole('row').filter({ hasText: '测试：磁盘已满' });
    await expect(row.getByText('失败')).toBeVisible();
    await row.getByRole('button', { name: /重\s*试/ }).click();
    await expectToast(page, '任务已重新排队');
    await expect(
      page
        .getByRole('row')
        .filter({ hasText: /页面 #1(?!\d)/ })
        .filter({ hasText: '已完成' })
        .first(),
    ).toBeVisible({
      timeout: 15_000,
    });
    await page.screenshot({ path: 'test-results/tour-40-jobs.png', fullPage: true });

    // The reading room's address ranges: a bad entry is refused by name, and nothing changes.
    await section(page, '阅览室').click();
    const ranges = page.getByRole('textbox', { name: '阅览室地址段' });
    await expect(ranges).toHaveValue('10.77.0.0/16');
    await expect(page.getByText(/您当前的地址是 .*，不在阅览室内/)).toBeVisible();
    await ranges.fill('10.77.0.0/16\n二楼阅览室');
    await page.getByRole('button', { name: '保存地址段' }).click();
    await expect(page.getByRole('alert')).toContainText('阅览室地址段格式不正确：二楼阅览室');
    await page.reload();
    await expect(ranges).toHaveValue('10.77.0.0/16');

    // The audit log names who changed the footer, and from what to what.
    await section(page, '审计日志').click();
    const entry = page.getByRole('row').filter({ hasText: '修改站点设置' }).first();
    await expect(entry).toContainText('admin');
    await expect(entry).toContainText('页脚版权信息：');
    await expect(entry).toContainText('→ 版权所有 © 演示古籍馆');
    await expect(entry.locator('code')).toHaveCount(0);
    await expect(page.getByRole('row').filter({ hasText: '重试任务' }).first()).toBeVisible();
    await page.screenshot({ path: 'test-results/tour-41-audit.png', fullPage: true });

    // Back to the demo's footer for the other tests of the run.
    await section(page, '站点设置').click();
    await page.getByLabel('页脚版权信息').fill(before);
    await page.getByRole('button', { name: '保存设置' }).click();
    await expectToast(page, '站点设置已保存');
  },
);

test('the console is for administrators only', async ({ page }) => {
  await login(page, 'reader', 'Shuyuan#2026');
  await expect(page).toHaveURL(/\/($|\?)/);
  await expect(page.getByRole('link', { name: '管理后台' })).toHaveCount(0);
  await page.goto('/Admin');
  await expect(page.getByText('无权限访问')).toBeVisible();
});

test('console users: find a reader, disable and enable them, reset their password; the SMS outbox', async ({
  page,
  browser,
  request,
}) => {
  const user = await registerViaApi(request);
  await login(page, 'admin', 'Guanli#2026');
  await expect(page).toHaveURL(/\/($|\?)/);
  await page.goto('/Admin?tab=users');
  await page.getByLabel('搜索用户').fill(user.loginName);
  await page.getByLabel('搜索用户').press('Enter');
  const row = page.getByRole('row').filter({ hasText: user.loginName });
  await expect(row.getByText('正常')).toBeVisible();
  await row.getByRole('button', { name: /停\s*用/ }).click();
  await expectToast(page, '已停用');
  await expect(row.getByText('已停用')).toBeVisible();
  await row.getByRole('button', { name: /启\s*用/ }).click();
  await expectToast(page, '已启用');
  await row.getByRole('button', { name: '重置密码' }).click();
  await page.locator('.ant-popconfirm-buttons .ant-btn-primary').click();
  const temporary = (await page.locator('.temp-password').textContent())!;
  expect(temporary).toMatch(/^[A-Za-z]{6}\d{4}#[A-Za-z]$/);
  await page
    .getByRole('dialog', { name: '临时密码（只显示一次）' })
    .getByRole('button', { name: '关闭' })
    .click();

  // A research reader, with a last day.
  await row.getByRole('button', { name: `修改 ${user.loginName} 的读者类别` }).click();
  const category = page.getByRole('dialog', { name: `读者类别：${user.loginName}` });
  await category.getByRole('radio', { name: '研究读者' }).check();
  await category.getByLabel('截止日期').fill('2099-12-31');
  await category.getByRole('button', { name: /保\s*存/ }).click();
  await expectToast(page, '读者类别已保存');
  await expect(row.getByText('研究读者（至 2099/12/31）')).toBeVisible();
  await page.screenshot({ path: 'test-results/tour-42-users.png', fullPage: true });

  const other = await (await browser.newContext()).newPage();
  await login(other, user.loginName, temporary);
  await expect(other).toHaveURL(/\/($|\?)/);
  // They see their category among their information.
  await other.goto('/PersonalPage/Infor');
  await expect(other.getByText('研究读者（至 2099/12/31）')).toBeVisible();
  await other.context().close();

  // The development SMS outbox shows the registration code sent to the new reader.
  await page.goto('/Admin?tab=sms');
  await page.getByLabel('按手机号筛选').fill(user.phone);
  await page.getByLabel('按手机号筛选').press('Enter');
  await expect(page.getByRole('row').filter({ hasText: user.phone }).first()).toBeVisible();
});

test('console bulk import: a package with its progress, the book in the catalogue, its tiles made', async ({
  page,
}) => {
  const sharp = (await import('sharp')).default;
  const { makeZip } = await import('../apps/server/test/zip.ts');
  const image = (shade: string) =>
    sharp({ create: { width: 400, height: 300, channels: 3, background: shade } })
      .png()
      .toBuffer();
  const stamp = Date.now().toString(36);
  const zip = makeZip({
    'metadata.json': JSON.stringify({
      books: [
        {
          sourceKey: `e2e-import-${stamp}`,
          title: `導入測試${stamp}`,
          author: '佚名',
          // Hidden, so the catalogue tests that count books are not disturbed; staff still open it.
          isVisible: false,
          isOpen: true,
          volumes: [{ name: '卷一', images: 'v1', directory: [{ name: '序', page: 1 }] }],
        },
      ],
    }),
    'v1/1.png': await image('#e9dcc0'),
    'v1/2.png': await image('#d9ccb0'),
  });
  await login(page, 'admin', 'Guanli#2026');
  await expect(page).toHaveURL(/\/($|\?)/);
  await page.goto('/Admin?tab=import');
  await page
    .getByLabel('导入包')
    .setInputFiles({ name: 'package.zip', mimeType: 'application/zip', buffer: zip });
  await expectToast(page, '已导入 1 部古籍');
  await expect(page.getByText('后台处理已完成')).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: 'test-results/tour-43-import.png', fullPage: true });
  await page.getByRole('link', { name: `導入測試${stamp}` }).click();
  await expect(page.getByRole('heading', { name: `導入測試${stamp}`, level: 1 })).toBeVisible();
});

test('console classification dictionary: a class added under a division shows in the search filter', async ({
  page,
}) => {
  await login(page, 'admin', 'Guanli#2026');
  await expect(page).toHaveURL(/\/($|\?)/);
  await page.goto('/Admin?tab=classes');
  const tree = page.getByRole('tree', { name: '分类树' });
  await tree.getByText('史部（SHI）').click();
  await expect(page.getByLabel('分类代码')).toHaveValue('SHI.');
  const code = `SHI.E${Date.now().toString(36).toUpperCase()}`;
  await page.getByLabel('分类代码').fill(code);
  await page.getByLabel('分类名称').fill('傳記類');
  await page.getByRole('button', { name: /添\s*加/ }).click();
  await expectToast(page, '分类已添加');
  // Shown as the cataloguer typed it, in 简 as in 繁.
  await expect(tree.getByText(`傳記類（${code}）`)).toBeVisible();
  await page.goto('/SearchPage');
  await page.locator('.ant-tree-treenode', { hasText: '史部' }).locator('.ant-tree-switcher').click();
  await expect(page.getByText('傳記類').first()).toBeVisible();
  // Unused, it can go again.
  await page.goto('/Admin?tab=classes');
  await page.getByRole('tree', { name: '分类树' }).getByText(`傳記類（${code}）`).click();
  await page.getByRole('button', { name: '删除分类' }).click();
  await page.locator('.ant-popconfirm-buttons .ant-btn-primary').click();
  await expectToast(page, '分类已删除');
});

test('console catalogue (catalogue staff): a new book, its volume, pages and directory, published, then deleted', async ({
  page,
}) => {
  const sharp = (await import('sharp')).default;
  const { makeZip } = await import('../apps/server/test/zip.ts');
  const leaf = (shade: string) =>
    sharp({ create: { width: 360, height: 500, channels: 3, background: shade } })
      .png()
      .toBuffer();
  const title = `孝经注疏${Date.now().toString(36)}`;
  await login(page, DEMO.catalogAdmin.loginName, DEMO.catalogAdmin.password);
  await expect(page).toHaveURL(/\/($|\?)/);
  await page.getByRole('link', { name: '管理后台' }).click();
  // Catalogue staff see the catalogue's tabs only.
  await expect(section(page, '编目管理')).toHaveAttribute('aria-current', 'page');
  await expect(section(page, '用户管理')).toHaveCount(0);

  // A new book: the title is required; hidden until published.
  await page.getByRole('button', { name: '新建古籍' }).click();
  const form = page.getByRole('dialog', { name: '新建古籍' });
  await form.getByRole('button', { name: /保\s*存/ }).click();
  await expect(form.getByText('请输入书名', { exact: true })).toBeVisible();
  await form.getByLabel('书名').fill(title);
  await form.getByLabel('著者').fill('唐玄宗注');
  await form.getByLabel('版本类型').fill('刻本');
  await form.getByLabel('版本', { exact: true }).fill('清嘉慶阮元刻本');
  await form.getByLabel('索书号').fill('E2E-經-900');
  await form.getByRole('button', { name: /保\s*存/ }).click();
  await expectToast(page, '古籍已添加，请继续添加卷册和页面');
  await page.getByLabel('搜索古籍').fill(title);
  await page.getByLabel('搜索古籍').press('Enter');
  const row = page.getByRole('row').filter({ hasText: title });
  await expect(row.getByRole('switch', { name: `公开显示《${title}》` })).not.toBeChecked();
  await expectAccessible(page);
  await page.screenshot({ path: 'test-results/tour-44-catalogue.png', fullPage: true });

  // Its volume and pages on the volume screens, reached from the console.
  await row.getByRole('link', { name: '卷册与影像' }).click();
  await expect(page.getByRole('navigation', { name: '当前位置' })).toContainText('编目管理');
  await page.getByRole('button', { name: '添加卷册' }).click();
  await page.getByRole('dialog', { name: '添加卷册' }).getByLabel('卷册名称').fill('卷一');
  await page
    .getByRole('dialog', { name: '添加卷册' })
    .getByRole('button', { name: /保\s*存/ })
    .click();
  await expectToast(page, '卷册添加成功');
  await page.getByLabel('上传「卷一」的 zip 压缩包').setInputFiles({
    name: 'juan1.zip',
    mimeType: 'application/zip',
    buffer: makeZip({
      '1.png': await leaf('#eadfc6'),
      '2.png': await leaf('#e0d2b4'),
      '3.png': await leaf('#d8c8a8'),
    }),
  });
  await expectToast(page, '图像上传成功（3 页）');

  // The directory: a heading without a page, two entries under it pointing at pages 2 and 3.
  await page.getByRole('button', { name: /目\s*录/ }).click();
  const editor = page.getByRole('dialog', { name: '编辑目录：卷一' });
  await expect(editor.getByRole('button', { name: '添加目录条目' })).toBeVisible();
  await animationsDone(page);
  await editor.getByRole('button', { name: '添加目录条目' }).click();
  await editor.getByLabel('第 1 条目录名称').fill('序');
  await editor.getByRole('button', { name: '添加目录条目' }).click();
  await editor.getByLabel('第 2 条目录名称').fill('開宗明義章');
  await editor.getByRole('button', { name: '第 2 条降一级' }).click();
  await editor.getByLabel('第 2 条目录的页面').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '第 2 页' }).click();
  // The list closes before the next one opens (two open at once would both offer the page).
  await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
  await editor.getByRole('button', { name: '在第 2 条下方添加' }).click();
  await editor.getByRole('button', { name: /保存目录/ }).click();
  await expect(editor.getByRole('alert')).toHaveText('请输入目录名称');
  await editor.getByLabel('第 3 条目录名称').fill('天子章');
  await editor.getByLabel('第 3 条目录的页面').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '第 3 页' }).click();
  await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
  await editor.getByRole('button', { name: /保存目录/ }).click();
  await expectToast(page, '目录已保存');

  // Staff read it, hidden as it is; the directory leads to the pages.
  await page.getByRole('link', { name: '阅读' }).click();
  const directory = page.getByRole('navigation', { name: '本册目录' });
  await expect(directory.getByText('序')).toBeVisible();
  await directory.getByText('天子章').click();
  await expect(page).toHaveURL(/imageId=\d+/);
  await expect(page.getByLabel('页码', { exact: true })).toHaveValue('3');

  // Published from the console, it is in the public search; deleted, it is gone.
  await page.goto('/Admin?tab=catalogue');
  await page.getByLabel('搜索古籍').fill(title);
  await page.getByLabel('搜索古籍').press('Enter');
  await row.getByRole('switch', { name: `公开显示《${title}》` }).click();
  await expectToast(page, '已公开显示');
  await expect(row.getByText('1 册', { exact: true })).toBeVisible();
  await expect(row.getByText('3 页', { exact: true })).toBeVisible();
  const visitor = await page.context().request.get(`/api/books?title=${encodeURIComponent(title)}`);
  expect(((await visitor.json()) as { total: number }).total).toBe(1);
  await row.getByRole('button', { name: /删\s*除/ }).click();
  await page.locator('.ant-popconfirm-buttons .ant-btn-primary').click();
  await expectToast(page, '古籍已删除');
  await expect(page.getByText('没有符合条件的古籍')).toBeVisible();
});

test('the console in traditional characters and a narrow window: no sideways page, accessible', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await login(page, 'admin', 'Guanli#2026');
  await expect(page).toHaveURL(/\/($|\?)/);
  await page.getByRole('button', { name: '繁體中文' }).click();
  for (const tab of ['dashboard', 'catalogue', 'users', 'jobs', 'audit']) {
    await page.goto(`/Admin?tab=${tab}`);
    await expect(page.getByRole('heading', { name: '管理後臺', level: 1 })).toBeVisible();
    await expect(page.locator('.admin-tabs a[aria-current="page"]')).toBeVisible();
    // Loaded: no table still dimmed under its spinner.
    await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
    await page.waitForLoadState('networkidle');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, tab).toBeLessThanOrEqual(0);
    await expectAccessible(page);
    await page.screenshot({ path: `test-results/mobile-admin-${tab}-traditional.png`, fullPage: true });
  }
  await expect(page).toHaveTitle(/管理後臺/);
  await page.evaluate(() => localStorage.setItem('language', 's'));
});
