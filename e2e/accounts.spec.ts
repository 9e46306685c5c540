import { expect, test, type Page } from '@playwright/test';
import { MSG } from '@guji/shared';
import {
  expectAccessible,
  expectToast,
  login,
  latestSmsCode,
  solveCaptcha,
  trackCaptchas,
  uniqueUser,
} from './support.ts';

const ID_CARD = '11010519491231002X';

test.beforeEach(({ page }) => {
  trackCaptchas(page);
});

async function fillRegisterForm(page: Page, user: { loginName: string; phone: string }, password: string) {
  await page.getByLabel('工作单位').fill('国家图书馆古籍馆');
  await page.getByLabel('用户名').fill(user.loginName);
  await page.getByLabel('真实姓名').fill('李白');
  await page.getByLabel('身份证号').fill(ID_CARD);
  await page.getByLabel('手机号').fill(user.phone);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByLabel('邮箱').fill('libai@example.com');
}

async function register(page: Page, user: { loginName: string; phone: string }, password: string) {
  const captchas = trackCaptchas(page);
  await page.goto('/Register');
  await fillRegisterForm(page, user, password);
  await page.getByLabel('图形验证码').fill(await solveCaptcha(captchas));
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expectToast(page, MSG.codeSent);
  await expect(page.getByRole('button', { name: /\d+秒后重新发送/ })).toBeVisible();
  const code = await latestSmsCode(user.phone);
  await page.getByLabel('短信验证码').fill(code);
  // The captcha was used by the code request; registration itself relies on the SMS code.
  await page.getByLabel('图形验证码').fill(await solveCaptcha(captchas));
  await page.getByRole('button', { name: '注册', exact: true }).click();
  await expectToast(page, MSG.registerSuccess);
  await expect(page).toHaveURL(/\/Login$/, { timeout: 5000 });
}

test('register with the outbox code, weak-password login, change password, forced re-login, logout', async ({
  page,
}) => {
  const user = uniqueUser();
  await register(page, user, 'abc12345');

  await login(page, user.loginName, 'abc12345');
  await expectToast(page, MSG.weakPassword);
  await expect(page).toHaveURL(/\/PersonalPage\/ChangePassword$/, { timeout: 5000 });
  await expectAccessible(page);

  await page.getByLabel('原密码').fill('abc12345');
  await page.getByLabel('新密码', { exact: true }).fill('Strong#2026');
  await page.getByLabel('确认新密码').fill('Strong#2026');
  await page
    .getByRole('button', { name: /确\s*定|提\s*交|修改密码/ })
    .last()
    .click();
  await expectToast(page, MSG.passwordSetSuccess);
  await expect(page).toHaveURL(/\/Login$/, { timeout: 5000 });

  // The old session is gone: the personal area asks for a login again.
  await page.goto('/PersonalPage/Infor');
  await expect(page).toHaveURL(/\/Login/);

  await login(page, user.loginName, 'abc12345');
  await expectToast(page, '用户名或密码错误');
  await login(page, user.loginName, 'Strong#2026');
  await expectToast(page, MSG.loginSuccess);
  await expect(page).toHaveURL(/\/$/, { timeout: 5000 });

  await page.getByRole('button', { name: /用户菜单/ }).click();
  await page.getByRole('menuitem', { name: '退出登录' }).click();
  await expectToast(page, MSG.logoutSuccess);
  await expect(page.getByRole('link', { name: '登录' })).toBeVisible();
});

test('recover a password through the three steps', async ({ page }) => {
  const user = uniqueUser();
  await register(page, user, 'Before#2026');

  const captchas = trackCaptchas(page);
  await page.goto('/Forget');
  await expectAccessible(page);
  await page.getByLabel('手机号').fill(user.phone);
  await page.getByLabel('图形验证码').fill(await solveCaptcha(captchas));
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expect(page.getByLabel('短信验证码')).toBeVisible();
  await page.getByLabel('短信验证码').fill(await latestSmsCode(user.phone));
  await page.getByRole('button', { name: /验\s*证|下一步/ }).click();
  await expect(page.getByLabel('新密码')).toBeVisible();
  await page.getByLabel('新密码').fill('After#2026');
  await page.getByLabel('确认密码').fill('After#2027');
  await page.getByRole('button', { name: /确\s*定|提\s*交|完\s*成/ }).click();
  await expect(page.getByText(MSG.passwordMismatchRecovery)).toBeVisible();
  await page.getByLabel('确认密码').fill('After#2026');
  await page.getByRole('button', { name: /确\s*定|提\s*交|完\s*成/ }).click();
  await expectToast(page, MSG.passwordSetSuccess);
  await expect(page).toHaveURL(/\/Login$/, { timeout: 5000 });

  await login(page, user.loginName, 'After#2026');
  await expectToast(page, MSG.loginSuccess);
});

test.describe('validation messages of spec §5', () => {
  test('login', async ({ page }) => {
    await page.goto('/Login');
    await expectAccessible(page);
    await page.getByRole('button', { name: /登\s*录/ }).click();
    for (const message of [MSG.loginNameRequired, MSG.passwordRequired, MSG.captchaRequired]) {
      await expect(page.getByText(message, { exact: true })).toBeVisible();
    }
  });

  test('register: every field rule', async ({ page }) => {
    await page.goto('/Register');
    await expect(page.getByLabel('工作单位')).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('button', { name: '注册', exact: true }).click();
    for (const message of [
      MSG.postRequired,
      MSG.loginNameRequired,
      MSG.realNameRequired,
      MSG.idCardInvalid,
      MSG.phoneRequired,
      MSG.imageCaptchaRequired,
      MSG.smsCodeRequired,
      MSG.passwordRequired,
      MSG.emailRequired,
    ]) {
      await expect(page.getByText(message, { exact: true }).first()).toBeVisible();
    }
    await page.getByLabel('真实姓名').fill('Li Bai');
    await page.getByLabel('身份证号').fill('110105194912310021');
    await page.getByLabel('手机号').fill('12345678901');
    await page.getByLabel('短信验证码').fill('12ab');
    await page.getByLabel('密码', { exact: true }).fill('abcdefgh');
    await page.getByLabel('邮箱').fill('not-an-email');
    await page.getByRole('button', { name: '注册', exact: true }).click();
    for (const message of [
      MSG.realNameRequired,
      MSG.idCardInvalid,
      MSG.phoneInvalid,
      MSG.smsCodeDigits,
      MSG.passwordPattern,
      MSG.emailInvalid,
    ]) {
      await expect(page.getByText(message, { exact: true }).first()).toBeVisible();
    }
  });

  test('register: the send-code button checks fields in the spec’s order', async ({ page }) => {
    await page.goto('/Register');
    const send = page.getByRole('button', { name: '获取验证码' });
    const steps: Array<[() => Promise<void>, string]> = [
      [async () => {}, MSG.realNameRequired],
      [() => page.getByLabel('真实姓名').fill('李白'), MSG.idCardInvalid],
      [() => page.getByLabel('身份证号').fill(ID_CARD), MSG.postRequired],
      [() => page.getByLabel('工作单位').fill('国家图书馆'), MSG.emailRequired],
      [() => page.getByLabel('邮箱').fill('libai@example.com'), MSG.loginNameRequired],
      [() => page.getByLabel('用户名').fill('libai'), MSG.passwordRequired],
      [() => page.getByLabel('密码', { exact: true }).fill('Libai#2026'), MSG.phoneInvalidForCode],
      [() => page.getByLabel('手机号').fill('13512345678'), MSG.imageCaptchaRequired],
    ];
    for (const [fill, message] of steps) {
      await fill();
      await send.click();
      await expectToast(page, message);
    }
  });

  test('recovery', async ({ page }) => {
    await page.goto('/Forget');
    await page.getByRole('button', { name: '获取验证码' }).click();
    await expect(
      page
        .getByText(MSG.phoneRequired, { exact: true })
        .or(page.getByText(MSG.phoneInvalid, { exact: true }))
        .first(),
    ).toBeVisible();
    await expect(page.getByText(MSG.imageCaptchaRequired, { exact: true })).toBeVisible();
    await page.getByLabel('手机号').fill('1234');
    await page.getByRole('button', { name: '获取验证码' }).click();
    await expect(page.getByText(MSG.phoneInvalid, { exact: true })).toBeVisible();
  });

  test('change password and my information', async ({ page }) => {
    const user = uniqueUser();
    await register(page, user, 'Valid#2026');
    await login(page, user.loginName, 'Valid#2026');
    await expect(page).toHaveURL(/\/$/);

    await page.goto('/PersonalPage/ChangePassword');
    await page
      .getByRole('button', { name: /确\s*定|提\s*交|修改密码/ })
      .last()
      .click();
    for (const message of [
      MSG.oldPasswordRequired,
      MSG.newPasswordRequired,
      MSG.confirmNewPasswordRequired,
    ]) {
      await expect(page.getByText(message, { exact: true })).toBeVisible();
    }
    await page.getByLabel('新密码', { exact: true }).fill('short');
    await page.getByLabel('确认新密码').fill('different');
    await page
      .getByRole('button', { name: /确\s*定|提\s*交|修改密码/ })
      .last()
      .click();
    await expect(page.getByText(MSG.passwordPattern, { exact: true })).toBeVisible();
    await expect(page.getByText(MSG.passwordMismatch, { exact: true })).toBeVisible();

    await page.goto('/PersonalPage/Infor');
    await expectAccessible(page);
    const cases: Array<[string, string, string]> = [
      ['昵称', 'x', MSG.nicknameInvalid],
      ['真实姓名', 'Li', MSG.realNameInvalid],
      ['邮箱', 'bad@', MSG.profileEmailInvalid],
      ['身份证号', '123', MSG.profileIdCardInvalid],
    ];
    for (const [label, value, message] of cases) {
      await page.getByRole('button', { name: `修改${label}` }).click();
      const input = page.getByRole('textbox', { name: label, exact: true });
      await input.fill(value);
      await input.press('Enter');
      await expect(page.getByText(message, { exact: true }).first()).toBeVisible();
      await input.press('Escape');
    }
    await page
      .getByRole('button', { name: '修改昵称' })
      .click()
      .catch(() => {});
    const nickname = page.getByRole('textbox', { name: '昵称', exact: true });
    await nickname.fill('太白居士');
    await nickname.press('Enter');
    await expectToast(page, MSG.modifySuccess);
    await expect(page.getByText('太白居士').first()).toBeVisible();

    await page.getByRole('button', { name: '修改手机号' }).click();
    await page.getByLabel('新手机号').fill('123');
    await page.getByRole('button', { name: '保存' }).click();
    await expect(page.getByText(MSG.profilePhoneInvalid, { exact: true }).first()).toBeVisible();

    await page
      .getByLabel('选择头像图片')
      .setInputFiles({ name: 'avatar.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await expectToast(page, MSG.avatarInvalid);
  });
});
