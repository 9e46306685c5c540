import { expect, test, type Page } from '@playwright/test';
import { apiLogin, dbGet, DEMO, login, registerViaApi } from './support.ts';

/**
 * Issue 32 part 1: the 简/繁 toggle converts the interface only. What people typed (a comment, a note, a
 * reservation's reason, a nickname) and the catalogue's fields (版本, 朝代) are shown exactly as stored in
 * both scripts. Each stored value mixes simplified and traditional characters, so either conversion would
 * change it: `…里面的后字不是后来的后` shown as `…裡面的後字不是後來的後` reverses its meaning.
 */
const COMMENT = '这里面的后字不是后来的后，見學而篇';
const NOTE = '此处后当作君后之后，与學無關';
const REASON = '研究后汉书里的學術史';
const NICKNAME = '后学里見';

const bookId = (title: string) => dbGet<{ id: number }>('select id from books where title = ?', title)!.id;

/** Sets the interface's script and reloads the page. */
async function useScript(page: Page, script: 's' | 't') {
  await page.evaluate((value) => localStorage.setItem('language', value), script);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', script === 't' ? 'zh-Hant' : 'zh-CN');
}

/** Each stored value is on the page exactly as stored (and no converted form of it). */
async function expectStored(page: Page, values: string[]) {
  for (const value of values) await expect(page.getByText(value, { exact: true }).first()).toBeVisible();
}

test('what people typed and the catalogue’s fields are shown as stored in 简 and 繁', async ({
  page,
  request,
}) => {
  const reader = await registerViaApi(request);
  await apiLogin(request, reader.loginName, reader.password);
  expect((await request.patch('/api/me', { data: { field: 'nickName', value: NICKNAME } })).ok()).toBe(true);
  const lunyu = bookId('論語');
  const comment = await request.post(`/api/books/${lunyu}/comments`, { data: { text: COMMENT } });
  expect(comment.ok(), await comment.text()).toBe(true);
  const { pages } = (await (await request.get(`/api/reader?catalogId=${lunyu}`)).json()) as {
    pages: { imageId: number }[];
  };
  const note = await request.post('/api/notes', {
    data: { imageId: pages[0]!.imageId, x: 10, y: 10, w: 80, h: 80, text: NOTE },
  });
  expect(note.ok(), await note.text()).toBe(true);
  // The longest duration: reviewed by staff (the same-day one is approved at once).
  const durations = (await (await request.get('/api/reservations/durations')).json()) as { code: string }[];
  const duration = durations.at(-1);
  const mengzi = dbGet<{ callNumber: string }>(
    "select call_number as callNumber from books where title = '孟子'",
  )!;
  const reservation = await request.post('/api/reservations', {
    data: { callNumber: mengzi.callNumber, title: '孟子', applyDays: duration!.code, detailReason: REASON },
  });
  expect(reservation.ok(), await reservation.text()).toBe(true);

  await login(page, reader.loginName, reader.password);
  await expect(page).toHaveURL(/\/($|\?)/, { timeout: 10_000 });
  const shiji = bookId('史記');
  const shijiRecord = dbGet<{ edition: string; dynasty: string }>(
    'select coverage_dynasty as edition, publish_dynasty as dynasty from books where id = ?',
    shiji,
  )!;
  // 史記's 版本 holds traditional characters (…前二葉); 简 had shown 前二叶.
  expect(shijiRecord.edition).toContain('前二葉');

  for (const script of ['t', 's'] as const) {
    await page.goto(`/SearchPage/${lunyu}`);
    await useScript(page, script);
    await expectStored(page, [COMMENT, NICKNAME]);
    await page.screenshot({ path: `test-results/stored-comment-${script}.png` });

    await page.goto(`/SearchPage/${shiji}`);
    await expectStored(page, [shijiRecord.edition, shijiRecord.dynasty]);

    await page.goto(`/SearchPage?title=${encodeURIComponent('史記')}`);
    await expectStored(page, [shijiRecord.edition, shijiRecord.dynasty]);

    await page.goto('/PersonalPage/Comment');
    await expectStored(page, [COMMENT]);
    await page.goto('/PersonalPage/Notation');
    await expectStored(page, [NOTE]);
    await page.goto('/PersonalPage/Appointment');
    await expect(page.getByText(REASON, { exact: true })).toBeVisible();
    await page.screenshot({ path: `test-results/stored-appointment-${script}.png` });
    await page.goto('/PersonalPage/Infor');
    await expectStored(page, [NICKNAME]);
  }

  // The reviewer's queue shows the reason as the reader wrote it.
  await page.context().clearCookies();
  await login(page, DEMO.reviewer.loginName, DEMO.reviewer.password);
  await expect(page).toHaveURL(/\/($|\?)/, { timeout: 10_000 });
  for (const script of ['t', 's'] as const) {
    await page.goto('/PersonalPage/AppointmentAudit');
    await useScript(page, script);
    await expect(page.getByText(REASON, { exact: true }).first()).toBeVisible();
  }
});
