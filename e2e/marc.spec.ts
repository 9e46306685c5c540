import { expect, test, type Page } from '@playwright/test';
import { DEMO, expectAccessible, expectToast, login } from './support.ts';

/** A MARCXML collection of MARC21 records: romanized 245 and 100 with their CJK script in 880 pairs. */
function marc21Xml(
  records: Array<{ id: string; call: string; title: string; edition: string; classCode?: string }>,
) {
  const sub = (code: string, value: string) => `<subfield code="${code}">${value}</subfield>`;
  const field = (tag: string, ind: string, ...subs: string[]) =>
    `<datafield tag="${tag}" ind1="${ind[0]}" ind2="${ind[1]}">${subs.join('')}</datafield>`;
  const record = (r: (typeof records)[number]) =>
    `<record><leader>00000nam a2200000 i 4500</leader><controlfield tag="001">${r.id}</controlfield>` +
    (r.classCode ? field('084', '  ', sub('a', r.classCode), sub('2', 'clc')) : '') +
    field('100', '1 ', sub('6', '880-01'), sub('a', 'Ji, Yun,')) +
    field('245', '10', sub('6', '880-02'), sub('a', 'Siku quanshu /')) +
    field('250', '  ', sub('a', r.edition)) +
    field('300', '  ', sub('a', '4冊')) +
    field('852', '8 ', sub('h', r.call)) +
    field('880', '1 ', sub('6', '100-01/$1'), sub('a', '(清)紀昀')) +
    field('880', '10', sub('6', '245-02/$1'), sub('a', `${r.title} /`)) +
    '</record>';
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>\n<collection xmlns="http://www.loc.gov/MARC21/slim">${records.map(record).join('')}</collection>`,
  );
}

const choose = (page: Page, name: string, buffer: Buffer) =>
  page.getByLabel('MARC 文件').setInputFiles({ name, mimeType: 'application/marcxml+xml', buffer });

test('console: a MARC21 file is previewed, confirmed, re-imported as a change, and a bad file changes nothing', async ({
  page,
}) => {
  const run = Date.now().toString(36);
  const book = {
    id: `e2e-${run}`,
    call: `E2E-MARC-${run}`,
    title: '四庫全書總目',
    edition: '清乾隆武英殿刻本',
  };
  await login(page, DEMO.catalogAdmin.loginName, DEMO.catalogAdmin.password);
  await expect(page).toHaveURL(/\/($|\?)/);
  await page.goto('/Admin?tab=marc');
  await expect(page.getByRole('link', { name: 'MARC 导入导出', exact: true })).toHaveAttribute(
    'aria-current',
    'page',
  );

  // Preview: the new record and its fields, nothing written yet.
  await choose(page, 'records.xml', marc21Xml([book]));
  const preview = page.getByRole('region', { name: '导入预览' });
  await expect(preview.getByText('MARC21（MARCXML）共 1 条：新增 1，修改 0，无变化 0')).toBeVisible();
  const row = preview.getByRole('row').filter({ hasText: book.title });
  await expect(row.getByText('新增', { exact: true })).toBeVisible();
  await expect(row.getByText('紀昀')).toBeVisible();
  await expect(row.getByText('清', { exact: true })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: 'test-results/marc-preview-new.png', fullPage: true });
  await page.getByRole('button', { name: '确认导入（新增 1，修改 0）' }).click();
  await expectToast(page, /已导入 MARC21 记录 1 条：新增 1 种/);

  // The same record with another edition: a change, old → new.
  await choose(page, 'records.xml', marc21Xml([{ ...book, edition: '清同治廣東書局刻本' }]));
  const changed = preview.getByRole('row').filter({ hasText: book.title });
  await expect(changed.getByText('修改', { exact: true })).toBeVisible();
  await expect(changed.locator('del')).toHaveText('清乾隆武英殿刻本');
  await expect(changed.locator('ins')).toHaveText('清同治廣東書局刻本');
  await page.screenshot({ path: 'test-results/marc-preview-changed.png', fullPage: true });
  await page.getByRole('button', { name: '确认导入（新增 0，修改 1）' }).click();
  await expectToast(page, /修改 1 种/);

  // One record in error: the preview names it and the field, and nothing can be confirmed.
  const bad = {
    id: `e2e-bad-${run}`,
    call: `E2E-BAD-${run}`,
    title: '錯誤之書',
    edition: '刻本',
    classCode: 'NO.SUCH',
  };
  await choose(page, 'bad.xml', marc21Xml([{ ...book, edition: '民國影印本' }, bad]));
  await expect(preview.getByText(/错误 1（请修正后重新上传）/)).toBeVisible();
  await expect(
    preview.getByText(`第 2 条记录（001 ${bad.id}），字段 084$a（分类）：分类“NO.SUCH”不在分类字典中`, {
      exact: false,
    }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: /确认导入/ })).toBeDisabled();
  await page.screenshot({ path: 'test-results/marc-preview-error.png', fullPage: true });

  // The catalogue has the book once, with the second edition, and exports it as MARCXML.
  await page.getByRole('link', { name: '编目管理', exact: true }).click();
  await page.getByRole('searchbox', { name: '搜索古籍' }).fill(book.call);
  await page.getByRole('searchbox', { name: '搜索古籍' }).press('Enter');
  const listed = page.getByRole('row').filter({ hasText: book.call });
  await expect(listed).toHaveCount(1);
  const download = page.waitForEvent('download');
  await listed.getByRole('link', { name: `导出《${book.title}》的 MARCXML` }).click();
  const file = await download;
  const text = await (await file.createReadStream()).toArray();
  const exported = Buffer.concat(text).toString('utf8');
  expect(exported).toContain(`<controlfield tag="001">${book.id}</controlfield>`);
  expect(exported).toContain('<subfield code="a">清同治廣東書局刻本</subfield>');
});

test('console: a reader has no MARC import', async ({ page }) => {
  await login(page, DEMO.reader.loginName, DEMO.reader.password);
  await expect(page).toHaveURL(/\/($|\?)/);
  await page.goto('/Admin?tab=marc');
  await expect(page.getByLabel('MARC 文件')).toHaveCount(0);
});
