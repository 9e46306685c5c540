import { expect, test } from '@playwright/test';
import { MSG } from '@guji/shared';
import { animationsDone, expectAccessible } from './support.ts';

test('the footer shows the site texts and the language toggle converts header and footer', async ({
  page,
}) => {
  await page.goto('/');
  const footer = page.locator('footer');
  await expect(footer).toContainText('京ICP备12345678号');
  await expect(footer).toContainText('国家古籍保护工程资助项目');
  await expectAccessible(page);

  await page.getByRole('button', { name: '繁體中文' }).click();
  // The page converts 500 ms after the choice.
  await expect(footer).toContainText('國家古籍保護工程資助項目', { timeout: 3000 });
  await expect(page.locator('header')).toContainText('古籍數字圖書館');
  await expect(page.locator('header')).toContainText('首頁');
  // The window title too.
  await expect(page).toHaveTitle(/古籍數字圖書館/);
  await page.screenshot({ path: 'test-results/home-traditional.png', fullPage: true });

  await page.reload();
  await expect(footer).toContainText('國家古籍保護工程資助項目', { timeout: 3000 });
  expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('t');

  await page.getByRole('button', { name: '简体中文' }).click();
  await expect(footer).toContainText('国家古籍保护工程资助项目', { timeout: 3000 });
  await expect(page.locator('header')).toContainText('古籍数字图书馆');
});

test('a render crash shows the fallback error page with a link home', async ({ page }) => {
  await page.goto('/?__crash=1');
  await expect(page.getByRole('heading', { name: '抱歉，页面无法打开' })).toBeVisible();
  await expect(page.getByText('网络连接异常')).toBeVisible();
  await page.getByRole('link', { name: '返回首页' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: '抱歉，页面无法打开' })).toHaveCount(0);
});

test('payment result pages have no header or footer and the spec’s texts', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 700 });
  await page.goto('/MobileSuccess?pay_result=1');
  await expect(page.getByText(MSG.paySuccess)).toBeVisible();
  await expect(page.locator('header')).toHaveCount(0);
  await expect(page.locator('footer')).toHaveCount(0);
  await expectAccessible(page);
  await page.goto('/MobileSuccess?pay_result=0');
  await expect(page.getByText(MSG.payFailed)).toBeVisible();
  await page.goto('/MobileSuccess');
  await expect(page.getByText(MSG.payFailed)).toBeVisible();
  await page.goto('/MobileError');
  await expect(page.locator('header')).toHaveCount(0);
  await expect(page.locator('body')).not.toBeEmpty();
});

test('paths containing /service render nothing, and unknown paths a 404 page', async ({ page }) => {
  await page.goto('/api-gateway/service/anything');
  await expect(page.locator('#root')).toBeEmpty();
  await page.goto('/NoSuchPage');
  await expect(page.getByText('404').first()).toBeVisible();
  await expect(page.getByRole('link', { name: /首页/ }).first()).toBeVisible();
});

test('the personal area sends a visitor to login, and login and register have no header', async ({
  page,
}) => {
  await page.goto('/PersonalPage/Infor');
  await expect(page).toHaveURL(/\/Login/);
  await expect(page.locator('header')).toHaveCount(0);
  await page.goto('/Register');
  await expect(page.locator('header')).toHaveCount(0);
});

test('forms fit a narrow window', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  for (const path of ['/Login', '/Register', '/Forget']) {
    await page.goto(path);
    // The form itself, not the spinner shown while its page's code loads, is what must fit.
    await expect(page.locator('form').first()).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, path).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `test-results/mobile${path.replace('/', '-')}.png`, fullPage: true });
  }
});

test('the header leads to the catalogue and full-text search; on a phone it is one row with a menu', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: '主导航' });
  await nav.getByRole('link', { name: '古籍检索' }).click();
  await expect(page).toHaveURL(/\/SearchPage$/);
  await nav.getByRole('link', { name: '全文检索' }).click();
  await expect(page).toHaveURL(/\/AdvancedSearch\?type=1$/);
  // No menu button on a wide screen: the links are in the header row.
  await expect(page.getByRole('button', { name: '菜单', exact: true })).toBeHidden();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  const header = page.locator('header');
  expect((await header.boundingBox())!.height).toBeLessThanOrEqual(56);
  await expect(nav).toBeHidden();
  const menu = page.getByRole('button', { name: '菜单', exact: true });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await menu.click();
  await expect(nav).toBeVisible();
  await page.screenshot({ path: 'test-results/header-390-menu.png' });
  await nav.getByRole('link', { name: '古籍检索' }).click();
  await expect(page).toHaveURL(/\/SearchPage$/);
  // Choosing a link closes the menu.
  await expect(nav).toBeHidden();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expectAccessible(page);
});

test('a person whose system asks for less motion gets dialogs without their zoom (WCAG 2.3.3)', async ({
  page,
}) => {
  /**
   * The dialog's and its mask's elements that got one of antd's motion classes (zoom, fade) with an
   * animation or transition that takes time, read the moment the class came (antd adds the classes with
   * motion off too, at zero duration). Animation events were counted before: a loaded machine did not
   * always deliver them while the dialog opened.
   */
  const dialogAnimations = async () => {
    await page.evaluate(() => {
      const w = window as unknown as { started: number };
      w.started = 0;
      const motion = /\bant-(zoom|fade)-(appear|enter)\b/;
      const seen = (node: Node) => {
        if (!(node instanceof Element)) return;
        for (const element of [node, ...node.querySelectorAll('*')])
          if (element.closest('.ant-modal-root') && motion.test(element.className.toString())) {
            const style = getComputedStyle(element);
            const takesTime = (value: string) => value.split(',').some((part) => parseFloat(part) > 0);
            if (takesTime(style.animationDuration) || takesTime(style.transitionDuration)) w.started += 1;
          }
      };
      // Only the dialog's own: the page may still be fading other things in after a reload.
      new MutationObserver((records) => {
        for (const record of records) {
          if (record.type === 'attributes') seen(record.target);
          record.addedNodes.forEach(seen);
        }
      }).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['class'],
      });
    });
    await page.getByRole('button', { name: '查看更多馆藏介绍' }).click();
    const dialog = page.getByRole('dialog', { name: '馆藏介绍' });
    await expect(dialog).toBeVisible();
    await animationsDone(page);
    const started = await page.evaluate(() => (window as unknown as { started: number }).started);
    await dialog.getByRole('button', { name: '关闭' }).first().click();
    await expect(dialog).toBeHidden();
    return started;
  };
  // The browser tests run with reduced motion (playwright.config.ts); here both ways.
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await page.goto('/');
  expect(await dialogAnimations()).toBeGreaterThan(0);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.reload();
  expect(await dialogAnimations()).toBe(0);
});
