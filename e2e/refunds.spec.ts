import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiLogin, dbGet, expectAccessible, expectToast, login, registerViaApi } from './support.ts';

/**
 * Issue 18 part 5 at the print desk: a paid scan order cancelled with its refund (the sandbox returns the
 * money at once), the reader seeing 已退款, and the day's reconciliation.
 */

/** A reader's order of one page of the demo 論語, paid by scan through the sandbox (set up by the API). */
async function paidScanOrder(request: APIRequestContext): Promise<string> {
  const reader = await registerViaApi(request);
  await apiLogin(request, reader.loginName, reader.password);
  const { id: imageId } = dbGet<{ id: number }>(
    `select p.id from pages p join volumes v on v.id = p.volume_id join books b on b.id = v.book_id
     where b.title = '論語' order by v.id, p.id limit 1`,
  )!;
  expect((await request.post('/api/print/items', { data: { imageId } })).ok()).toBe(true);
  const unpaid = (await (await request.get('/api/print/items?tab=unpaid')).json()) as {
    records: Array<{ id: number }>;
  };
  const order = (await (
    await request.post('/api/print/orders', {
      data: { itemIds: unpaid.records.map((r) => r.id), extract: 0, payment: 1 },
    })
  ).json()) as { orderNum: string };
  const scan = (await (await request.post(`/api/print/orders/${order.orderNum}/scan`)).json()) as {
    tradeNo: string;
    payUrl: string;
  };
  const sig = new URL(scan.payUrl).searchParams.get('sig')!;
  const paid = await request.post(`/api/payments/sandbox/${scan.tradeNo}/confirm`, {
    data: { sig, pay: true },
  });
  expect(paid.ok(), await paid.text()).toBe(true);
  return order.orderNum;
}

test('the desk cancels a paid order with its refund, and reconciles the day', async ({ page, request }) => {
  const orderNum = await paidScanOrder(request);
  await login(page, 'printadmin', 'Yinshua#2026');
  await expect(page).toHaveURL(/\/($|\?)/);
  await page.goto('/PersonalPage/AdminPrint');
  const row = page.getByRole('row').filter({ hasText: orderNum });
  await row.getByRole('button', { name: /展开行|Expand row/ }).click();
  const refunds = page.getByRole('region', { name: `订单 ${orderNum} 的退款` });
  await refunds.getByRole('button', { name: '取消订单并退款' }).click();
  const dialog = page.getByRole('dialog', { name: `取消订单 ${orderNum} 并退款` });
  // A reason is required.
  await dialog.getByRole('button', { name: '取消订单并退款' }).click();
  await expectToast(page, '请填写取消原因');
  await dialog.getByLabel('取消原因').fill('读者来电：页码选错');
  await page.screenshot({ path: 'test-results/refund-dialog.png' });
  await dialog.getByRole('button', { name: '取消订单并退款' }).click();
  await expectToast(page, '订单已取消，款项已退回');
  await expect(refunds.getByText('已退款')).toBeVisible();
  await expect(refunds.getByText(/沙箱 退款 ¥1\.50 · 读者来电：页码选错/)).toBeVisible();
  await expect(refunds.getByRole('button', { name: '取消订单并退款' })).toHaveCount(0);
  const items = page.getByRole('group', { name: `订单 ${orderNum} 的项目` });
  await expect(items.getByRole('region', { name: '订单明细' }).getByText('已退款')).toBeVisible();

  // The day's reconciliation: the sandbox has no ledger to check against, and says so.
  const panel = page.getByRole('region', { name: '支付对账' });
  await panel.getByRole('button', { name: '对账' }).click();
  await expect(panel.getByRole('status')).toContainText('笔交易');
  const trade = panel.getByRole('row').filter({ hasText: orderNum });
  await expect(trade.getByText('无法查询')).toBeVisible();
  await expect(trade.getByText('沙箱交易，无支付平台记录')).toBeVisible();
  await expect(trade.getByText(/退款 ¥1\.50/)).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: 'test-results/refund-desk.png', fullPage: true });
});
