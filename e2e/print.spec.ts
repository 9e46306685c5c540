import { expect, test, type Browser, type Page } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { MSG } from '@guji/shared';
import { apiLogin, DEMO, expectAccessible, expectToast, login, registerViaApi, ALONE } from './support.ts';

/** Opens a demo book in the reader as a signed-in reader. */
async function openReader(page: Page, title: string, shown: string): Promise<void> {
  await page.goto(`/SearchPage?title=${encodeURIComponent(title)}`);
  await page.getByRole('link', { name: shown }).first().click();
  await page.getByRole('button', { name: '阅读本册' }).click();
  await expect(page.getByRole('region', { name: '第 1 页图像' })).toHaveAttribute('data-drawn', 'true');
}

async function addThisPage(page: Page): Promise<void> {
  await page.getByRole('button', { name: '加入打印' }).click();
  await page.getByRole('menuitem', { name: '本页' }).click();
  await expectToast(page, MSG.printAdded);
}

async function addRange(page: Page, from: number, to: number): Promise<void> {
  await page.getByRole('button', { name: '加入打印' }).click();
  await page.getByRole('menuitem', { name: '页码范围…' }).click();
  const dialog = page.getByRole('dialog', { name: '按页码范围加入打印' });
  await dialog.getByLabel('起始页').fill(String(from));
  await dialog.getByLabel('结束页').fill(String(to));
  await dialog.getByRole('button', { name: /加\s*入/ }).click();
  await expectToast(page, `${MSG.printAdded}（${to - from + 1} 页）`);
}

async function toPay(page: Page): Promise<void> {
  await page.goto('/PersonalPage/Print');
  await page.getByRole('tab', { name: '待支付' }).click();
}

/** Selects every row of the to-pay table. */
async function selectAll(page: Page): Promise<void> {
  await page.locator('.to-pay thead .ant-checkbox-input').check();
}

async function deskPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  const desk = await context.newPage();
  await login(desk, 'printadmin', 'Yinshua#2026');
  await expect(desk).toHaveURL(/\/($|\?)/);
  await desk.goto('/PersonalPage/AdminPrint');
  return desk;
}

/** Expands an order on the desk and selects all of its items. */
async function openOrder(desk: Page, orderNum: string) {
  const row = desk.getByRole('row').filter({ hasText: orderNum });
  await row.getByRole('button', { name: /展开行|Expand row/ }).click();
  const group = desk.getByRole('group', { name: `订单 ${orderNum} 的项目` });
  await group.locator('thead .ant-checkbox-input').check();
  return group;
}

/**
 * Issue 16: at 1440×900 a desk table fits its box (no sideways scrolling) and its last column ends inside
 * the window; the summary's and an open order's items are checked.
 */
async function expectDeskTablesFit(desk: Page): Promise<void> {
  const boxes = [desk.locator('.admin-print > .table-scroll'), desk.locator('.desk-items .table-scroll')];
  for (const box of boxes) {
    await expect(box).toHaveCount(1);
    // Neither the box nor antd's scroller inside it (.ant-table-content) scrolls sideways.
    const overflows = await box.evaluate((el) =>
      [el, ...el.querySelectorAll('.ant-table-content')].map((e) => e.scrollWidth - e.clientWidth),
    );
    for (const overflow of overflows) expect(overflow).toBeLessThanOrEqual(0);
    // The table's own head (an order's items sit in a table of their own inside the summary's).
    const last = box.locator('thead').first().locator('th').last();
    const edge = await last.evaluate((th) => th.getBoundingClientRect().right);
    expect(edge).toBeLessThanOrEqual(1440);
    expect(edge).toBeLessThanOrEqual(await box.evaluate((el) => el.getBoundingClientRect().right + 0.5));
  }
}

test('scan to pay: pages chosen in the reader, the sandbox page paid on a phone, the desk prints a PDF', async ({
  page,
  browser,
  request,
}) => {
  const user = await registerViaApi(request);
  await login(page, user.loginName, user.password);
  await expect(page).toHaveURL(/\/($|\?)/);
  await openReader(page, '論語', '論語');
  await addThisPage(page);
  await addRange(page, 2, 3);

  await toPay(page);
  await expect(page.getByRole('row')).toHaveCount(4); // header + 3 pages
  await expectAccessible(page);
  // Spec §5: at least one item; a payment mode for self-pickup; an invoice title when an invoice is asked for.
  await page.getByRole('button', { name: /结算/ }).click();
  await expectToast(page, MSG.checkoutSelectOne);
  await selectAll(page);
  await expect(page.getByText('已选 3 项，合计 ¥4.50')).toBeVisible();
  await page.getByRole('button', { name: /结算/ }).click();
  await expect(page.getByText(MSG.checkoutPaymentRequired)).toBeVisible();
  await page.getByLabel('扫码支付').check();
  await page.getByLabel('开具发票').check();
  await page.getByRole('button', { name: /结算/ }).click();
  await expect(page.getByText(MSG.checkoutInvoiceTitleRequired)).toBeVisible();
  await page.getByLabel('发票抬头').fill('北京大学图书馆');
  await page.screenshot({ path: 'test-results/tour-20-checkout.png', fullPage: true });
  await page.getByRole('button', { name: /结算/ }).click();
  await expectToast(page, MSG.orderSaved);

  const dialog = page.getByRole('dialog');
  const qr = dialog.getByRole('img', { name: '扫码支付二维码' });
  await expect(qr).toBeVisible();
  const title = (await dialog.locator('.ant-modal-title').textContent()) ?? '';
  const orderNum = /P\d{20}/.exec(title)![0];
  await page.screenshot({ path: 'test-results/tour-21-scan.png' });
  const payUrl = (await dialog.getByRole('link', { name: '在手机上打开支付页面' }).getAttribute('href'))!;

  // The phone: a mobile-sized page opens the link the QR code carries and pays.
  const phoneContext = await browser.newContext({ viewport: { width: 375, height: 700 }, isMobile: true });
  const phone = await phoneContext.newPage();
  await phone.goto(payUrl);
  await expect(phone.getByText('¥4.50')).toBeVisible();
  await expect(phone.locator('header')).toHaveCount(0);
  await phone.screenshot({ path: 'test-results/tour-22-sandbox-pay.png' });
  await phone.getByRole('button', { name: '确认支付' }).click();
  await expect(phone).toHaveURL(/\/MobileSuccess\?pay_result=1$/);
  await expect(phone.getByRole('heading', { name: MSG.paySuccess })).toBeVisible();
  await phoneContext.close();

  // The desktop page notices within a poll or two.
  await expect(page).toHaveURL(new RegExp(`/PaymentSucceeded\\?orderNum=${orderNum}$`), { timeout: 6000 });
  await expect(page.getByRole('heading', { name: MSG.paySuccess })).toBeVisible();
  await expect(page.getByText('¥4.50（3 页）')).toBeVisible();
  await page.screenshot({ path: 'test-results/tour-23-paid.png', fullPage: true });
  // On a phone 我的打印 keeps each page's order number in sight.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/PersonalPage/Print');
  await page.getByRole('tab', { name: '全部打印' }).click();
  const firstRow = page.getByRole('row').filter({ hasText: '論語' }).first();
  await expect(firstRow.getByText(`订单号 ${orderNum}`)).toBeInViewport();
  await page.screenshot({ path: 'test-results/my-prints-390.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // The print desk sees the notice, prints, and downloads a PDF of a cover sheet and three pages.
  const desk = await deskPage(browser);
  await expect(desk.getByRole('region', { name: '支付通知' }).getByText(orderNum)).toBeVisible();
  const group = await openOrder(desk, orderNum);
  // Paid by scan: there is no cash to confirm.
  await expect(group.getByRole('button', { name: '确认付款' })).toBeDisabled();
  // The invoice the reader asked for is on the order, before anything is printed.
  await expect(group.getByText('需开发票')).toBeVisible();
  await expect(group.getByText('北京大学图书馆')).toBeVisible();
  // 标记已打印 names the pages, in page order, and waits for a yes.
  await group.getByRole('button', { name: '标记已打印' }).click();
  const confirm = desk.getByRole('dialog', { name: '标记 3 页为已打印？' });
  await expect(confirm.getByRole('list', { name: '将打印的页面' }).getByRole('listitem')).toHaveText([
    /《論語》.* 第 1 页/,
    /《論語》.* 第 2 页/,
    /《論語》.* 第 3 页/,
  ]);
  await expect(confirm).toContainText(`${orderNum}.pdf`);
  // (The dialog's opening animation is over before the picture is taken.)
  await expect(desk.locator('[class*="-appear-active"], [class*="-enter-active"]')).toHaveCount(0);
  await desk.screenshot({ path: 'test-results/desk-confirm-printed.png' });
  await confirm.getByRole('button', { name: '取消' }).click();
  await expect(group.getByRole('link', { name: '下载打印文件（PDF）' })).toHaveCount(0);
  await group.getByRole('button', { name: '标记已打印' }).click();
  await confirm.getByRole('button', { name: '标记已打印' }).click();
  await expectToast(desk, MSG.printedDone);
  const downloading = desk.waitForEvent('download');
  await group.getByRole('link', { name: '下载打印文件（PDF）' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${orderNum}.pdf`);
  const pdf = await PDFDocument.load(
    await (await import('node:fs/promises')).readFile(await download.path()),
  );
  expect(pdf.getPageCount()).toBe(4);
  // Picked up at the library: no courier number to enter.
  await expect(group.getByLabel('快递单号')).toHaveCount(0);
  // The print file stays listed with the order after a reload.
  await desk.reload();
  const again = await openOrder(desk, orderNum);
  await expect(again.getByRole('link', { name: '下载打印文件（PDF）' })).toBeVisible();
  await desk.setViewportSize({ width: 1440, height: 900 });
  await desk.screenshot({ path: 'test-results/tour-24-desk.png', fullPage: true });
  await desk.context().close();
});

test('cash at the desk, and a posted order printed and given a courier number', async ({
  page,
  browser,
  request,
}) => {
  const user = await registerViaApi(request);
  await login(page, user.loginName, user.password);
  await expect(page).toHaveURL(/\/($|\?)/);
  await openReader(page, '大學', '大學');
  await addThisPage(page);

  // Cash: the note appears after the order is saved.
  await toPay(page);
  await selectAll(page);
  await page.getByLabel('现金（到馆付款）').check();
  await page.getByRole('button', { name: /结算/ }).click();
  await expect(page.getByText(MSG.cashNote)).toBeVisible();
  const cashNum = /P\d{20}/.exec(
    (await page.getByRole('dialog').locator('.ant-modal-title').textContent()) ?? '',
  )![0];
  await page
    .getByRole('dialog')
    .locator('.ant-modal-footer')
    .getByRole('button', { name: /关\s*闭/ })
    .click();

  const desk = await deskPage(browser);
  let group = await openOrder(desk, cashNum);
  await group.getByRole('button', { name: '标记已打印' }).click();
  await expectToast(desk, MSG.adminPrintUnpaid);
  await group.getByRole('button', { name: '确认付款' }).click();
  await expectToast(desk, MSG.paymentConfirmed);
  await page.goto(`/Order/${cashNum}`);
  await expect(page.getByText('已支付')).toBeVisible();

  // Post, once the site allows it: consignee, phone and address required; paid by scan.
  const admin = await (
    await import('@playwright/test')
  ).request.newContext({ baseURL: new URL(page.url()).origin });
  await apiLogin(admin, 'admin', 'Guanli#2026');
  expect((await admin.put('/api/admin/site', { data: { printPostEnabled: true } })).ok()).toBe(true);
  await openReader(page, '大學', '大學');
  await addThisPage(page);
  await toPay(page);
  await selectAll(page);
  await page.getByLabel('邮寄（扫码支付）').check();
  await page.getByRole('button', { name: /结算/ }).click();
  await expect(page.getByText(MSG.checkoutConsigneeRequired, { exact: true })).toBeVisible();
  await expect(page.getByText(MSG.checkoutPhoneRequired)).toBeVisible();
  await expect(page.getByText(MSG.checkoutAddressRequired)).toBeVisible();
  await page.getByLabel('收件人', { exact: true }).fill('李读者');
  await page.getByLabel('收件人手机号').fill('13912345678');
  await page.getByLabel('收件地址').fill('北京市海淀区中关村大街1号');
  await page.getByRole('button', { name: /结算/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('img', { name: '扫码支付二维码' })).toBeVisible();
  const postNum = /P\d{20}/.exec((await dialog.locator('.ant-modal-title').textContent()) ?? '')![0];
  const payUrl = (await dialog.getByRole('link', { name: '在手机上打开支付页面' }).getAttribute('href'))!;
  const phone = await (await browser.newContext({ viewport: { width: 375, height: 700 } })).newPage();
  await phone.goto(payUrl);
  await phone.getByRole('button', { name: '确认支付' }).click();
  await expect(phone).toHaveURL(/pay_result=1$/);
  await expect(page).toHaveURL(/\/PaymentSucceeded\?orderNum=/, { timeout: 6000 });

  await desk.reload();
  group = await openOrder(desk, postNum);
  await group.getByLabel('快递单号').fill('SF200');
  await group.getByRole('button', { name: '保存快递单号' }).click();
  await expectToast(desk, MSG.adminExpressUnprinted);
  await group.getByRole('button', { name: '标记已打印' }).click();
  await desk.getByRole('dialog').getByRole('button', { name: '标记已打印' }).click();
  await expectToast(desk, MSG.printedDone);
  await group.locator('thead .ant-checkbox-input').check();
  await group.getByLabel('快递单号').fill('');
  await group.getByRole('button', { name: '保存快递单号' }).click();
  await expectToast(desk, MSG.adminExpressEmpty);
  await group.getByLabel('快递单号').fill('SF1234567890');
  await group.getByRole('button', { name: '保存快递单号' }).click();
  await expectToast(desk, MSG.expressSaved);
  await group.locator('thead .ant-checkbox-input').check();
  await group.getByLabel('快递单号').fill('SF0');
  await group.getByRole('button', { name: '保存快递单号' }).click();
  await expectToast(desk, MSG.adminExpressExists);
  await group.locator('thead .ant-checkbox-input').uncheck();
  // Nothing chosen: no cash to confirm, and a batch action asks for a choice.
  await expect(group.getByRole('button', { name: '确认付款' })).toBeDisabled();
  await group.getByRole('button', { name: '标记已打印' }).click();
  await expectToast(desk, '请至少选择一项');

  await page.goto(`/Order/${postNum}`);
  await expect(page.getByText('SF1234567890')).toBeVisible();

  // The desk's tables fit a 1440×900 window in 简 and 繁 (the posted order's items are the widest);
  // on a 390 phone the page keeps its width and a table scrolls inside its box.
  await desk.setViewportSize({ width: 1440, height: 900 });
  await expectDeskTablesFit(desk);
  await desk.screenshot({ path: 'test-results/desk-tables-1440.png', fullPage: true });
  await desk.getByRole('button', { name: '繁體中文' }).click();
  await expect(desk.getByRole('button', { name: '保存快遞單號' })).toBeVisible();
  await expectDeskTablesFit(desk);
  await desk.screenshot({ path: 'test-results/desk-tables-1440-traditional.png', fullPage: true });
  for (const language of ['t', 's']) {
    if (language === 's') {
      await desk.getByRole('button', { name: '简体中文' }).click();
      await expect(desk.getByRole('button', { name: '保存快递单号' })).toBeVisible();
    }
    await desk.setViewportSize({ width: 390, height: 844 });
    const overflow = await desk.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await desk.screenshot({ path: `test-results/desk-tables-390-${language}.png`, fullPage: true });
  }
  expect((await admin.put('/api/admin/site', { data: { printPostEnabled: false } })).ok()).toBe(true);
  await admin.dispose();
});

test('my prints in traditional characters and a narrow window; a reader cannot open the print desk', async ({
  page,
  request,
}) => {
  const user = await registerViaApi(request);
  await page.setViewportSize({ width: 375, height: 800 });
  await login(page, user.loginName, user.password);
  await expect(page).toHaveURL(/\/($|\?)/);
  await page.goto('/PersonalPage/AdminPrint');
  await expect(page.getByRole('heading', { name: '管理员打印' })).toHaveCount(0);
  await page.getByRole('button', { name: '繁體中文' }).click();
  await page.goto('/PersonalPage/Print');
  await expect(page.getByRole('heading', { name: '我的打印', level: 1 })).toBeVisible();
  await expect(page.getByText('沒有待支付的項目')).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: 'test-results/mobile-print-traditional.png', fullPage: true });
  await page.evaluate(() => localStorage.setItem('language', 's'));
  expect(DEMO.reader.loginName).toBe('reader');
});

// Site-wide: the price of every order changes, so this runs after the tests that run side by side.
test('an administrator sets the price per page on the print desk', { tag: ALONE }, async ({ page }) => {
  await login(page, 'admin', 'Guanli#2026');
  await expect(page).toHaveURL(/\/($|\?)/);
  await page.goto('/PersonalPage/AdminPrint');
  const prices = page.getByRole('region', { name: '价格设置' });
  await expect(prices.getByLabel('第 1 行纸张')).toHaveValue('A4');
  await prices.getByLabel('第 1 行每页价格').fill('2.00');
  await prices.getByRole('button', { name: '保存价格' }).click();
  await expectToast(page, '价格已保存');
  const saved = (await (await page.request.get('/api/print/prices')).json()) as Array<{ priceFen: number }>;
  expect(saved[0]!.priceFen).toBe(200);
  await page.screenshot({ path: 'test-results/tour-25-prices.png', fullPage: true });
  // Back to the demo's price, for the other tests of the run.
  await prices.getByLabel('第 1 行每页价格').fill('1.50');
  await prices.getByRole('button', { name: '保存价格' }).click();
  await expectToast(page, '价格已保存');
});
