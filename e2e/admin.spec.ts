import { expect, test } from '@playwright/test';
import { dbRun, expectAccessible, expectToast, login, registerViaApi } from './support.ts';

test('console: a site setting changes the footer, a failed job is retried, the change is in the audit log', async ({
  page,
}) => {
  await login(page, 'admin', 'Guanli#2026');
  await expect(page).toHaveURL(/\/($|\?)/);
  await page.getByRole('link', { name: '管理后台' }).click();
  await expect(page.getByRole('heading', { name: '管理后台', level: 1 })).toBeVisible();

  // The dashboard opens first: the range's totals and a chart per figure, with the numbers as a table.
  await expect(page.getByText('页面浏览', { exact: true })).toBeVisible();
  await expect(page.getByRole('img', { name: /^每日读者与页面浏览：/ })).toBeVisible();
  await expect(page.getByRole('img', { name: /^每日 OCR 识别页数：/ })).toBeVisible();
  await page.getByRole('radio', { name: '近 7 天' }).check({ force: true });
  const ocrChart = page.getByRole('figure').filter({ hasText: '每日 OCR 识别页数' });
  await ocrChart.getByRole('button', { name: '查看数据表' }).click();
  await expect(ocrChart.getByRole('row')).toHaveCount(8);
  await expectAccessible(page);
  await page.screenshot({ path: 'test-results/tour-39-dashboard.png', fullPage: true });

  // Site settings: the footer follows at once.
  await page.getByRole('tab', { name: '站点设置' }).click();
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
  await page.getByRole('tab', { name: '任务监控' }).click();
  const row = page.getByRole('row').filter({ hasText: '测试：磁盘已满' });
  await expect(row.getByText('失败')).toBeVisible();
  await row.getByRole('button', { name: /重\s*试/ }).click();
  await expectToast(page, '任务已重新排队');
  await expect(
    page.getByRole('row').filter({ hasText: '{"pageId":1}' }).filter({ hasText: '已完成' }).first(),
  ).toBeVisible({
    timeout: 15_000,
  });
  await page.screenshot({ path: 'test-results/tour-40-jobs.png', fullPage: true });

  // The audit log names who changed the footer, and from what to what.
  await page.getByRole('tab', { name: '审计日志' }).click();
  const entry = page.getByRole('row').filter({ hasText: '修改站点设置' }).first();
  await expect(entry).toContainText('admin');
  await expect(entry).toContainText('版权所有 © 演示古籍馆');
  await expect(page.getByRole('row').filter({ hasText: '重试任务' }).first()).toBeVisible();
  await page.screenshot({ path: 'test-results/tour-41-audit.png', fullPage: true });

  // Back to the demo's footer for the other tests of the run.
  await page.getByRole('tab', { name: '站点设置' }).click();
  await page.getByLabel('页脚版权信息').fill(before);
  await page.getByRole('button', { name: '保存设置' }).click();
  await expectToast(page, '站点设置已保存');
});

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
  await page.screenshot({ path: 'test-results/tour-42-users.png', fullPage: true });

  const other = await (await browser.newContext()).newPage();
  await login(other, user.loginName, temporary);
  await expect(other).toHaveURL(/\/($|\?)/);
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
  await page.getByRole('link', { name: `导入测试${stamp}` }).click();
  await expect(page.getByRole('heading', { name: `导入测试${stamp}`, level: 1 })).toBeVisible();
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
  await expect(tree.getByText(`传记类（${code}）`)).toBeVisible();
  await page.goto('/SearchPage');
  await page.locator('.ant-tree-treenode', { hasText: '史部' }).locator('.ant-tree-switcher').click();
  await expect(page.getByText('传记类').first()).toBeVisible();
  // Unused, it can go again.
  await page.goto('/Admin?tab=classes');
  await page.getByRole('tree', { name: '分类树' }).getByText(`传记类（${code}）`).click();
  await page.getByRole('button', { name: '删除分类' }).click();
  await page.locator('.ant-popconfirm-buttons .ant-btn-primary').click();
  await expectToast(page, '分类已删除');
});
