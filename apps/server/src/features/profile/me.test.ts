import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, MSG } from '@guji/shared';
import { createHttpHarness, GOOD_PASSWORD, multipartFile, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';

describe.each(DIALECTS)('my information over HTTP on %s', (dialect) => {
  let h: HttpHarness;
  let cookie: string;
  let seq = 0;
  beforeAll(async () => {
    h = await createHttpHarness(dialect);
  });
  afterAll(async () => h.close());

  async function freshUser(): Promise<string> {
    const loginName = `me${seq}`;
    const phone = `1370000${String(1000 + seq++)}`;
    await h.register({ loginName, phone });
    return (await h.login(loginName, GOOD_PASSWORD)).cookie;
  }

  beforeAll(async () => {
    cookie = await freshUser();
  });

  it('needs a session', async () => {
    const response = await h.request({
      method: 'PATCH',
      url: '/api/me',
      body: { field: 'nickName', value: '书虫' },
    });
    expect(response.statusCode).toBe(401);
  });

  it('changes one field at a time with the spec’s rules', async () => {
    const ok = await h.request({
      method: 'PATCH',
      url: '/api/me',
      cookie,
      body: { field: 'nickName', value: '书虫_01' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ nickName: '书虫_01' });
    const cases: Array<[Record<string, string>, string]> = [
      [{ field: 'nickName', value: 'a' }, MSG.nicknameInvalid],
      [{ field: 'nickName', value: '一二三四五六七八九十一二三' }, MSG.nicknameInvalid],
      [{ field: 'nickName', value: 'bad name!' }, MSG.nicknameInvalid],
      [{ field: 'realName', value: '张' }, MSG.realNameInvalid],
      [{ field: 'email', value: 'a@b' }, MSG.profileEmailInvalid],
      [{ field: 'idCard', value: '123' }, MSG.profileIdCardInvalid],
      [{ field: 'phone', value: '2345', phoneCode: '123456' }, MSG.profilePhoneInvalid],
      [{ field: 'phone', value: '13711112222', phoneCode: 'abc' }, MSG.profileCodeRequired],
    ];
    for (const [body, message] of cases) {
      const response = await h.request({ method: 'PATCH', url: '/api/me', cookie, body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json<{ message: string }>().message).toBe(message);
    }
    expect((await h.request({ method: 'GET', url: '/api/me', cookie })).json()).toMatchObject({
      nickName: '书虫_01',
    });
  });

  it('changes the phone only with a code sent to the new number', async () => {
    const newPhone = '13722223333';
    const wrong = await h.request({
      method: 'PATCH',
      url: '/api/me',
      cookie,
      body: { field: 'phone', value: newPhone, phoneCode: '123456' },
    });
    expect(wrong.statusCode).toBe(400);
    const code = await h.smsCode(newPhone, 'profile', cookie);
    const ok = await h.request({
      method: 'PATCH',
      url: '/api/me',
      cookie,
      body: { field: 'phone', value: newPhone, phoneCode: code },
    });
    expect(ok.json()).toMatchObject({ phone: newPhone });
  });

  it('refuses a profile code request without a session', async () => {
    const response = await h.request({
      method: 'POST',
      url: '/api/sms/send',
      body: { phone: '13733334444', purpose: 'profile', ...(await h.captcha()) },
    });
    expect(response.statusCode).toBe(401);
  });

  it('stores a PNG avatar and serves it back', async () => {
    const png = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#884422' } })
      .png()
      .toBuffer();
    const { payload, contentType } = multipartFile('file', 'me.png', png, 'image/png');
    const response = await h.request({
      method: 'POST',
      url: '/api/me/avatar',
      cookie,
      payload,
      headers: { 'content-type': contentType },
    });
    expect(response.statusCode, response.body).toBe(200);
    const url = response.json<{ avatarUrl: string }>().avatarUrl;
    expect(url).toMatch(/^\/api\/avatars\/\d+-[0-9a-f]{24}\.png$/);
    const image = await h.request({ method: 'GET', url });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect((await sharp(image.rawPayload).metadata()).width).toBe(360);
  });

  it('refuses a file that is not an image whatever its name, a wrong extension, and one over 2 MB', async () => {
    const textAsPng = multipartFile(
      'file',
      'evil.png',
      Buffer.from('<script>alert(1)</script> just text, not a picture'),
    );
    const gif = multipartFile('file', 'a.gif', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;'));
    const jpeg = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
      .jpeg()
      .toBuffer();
    const bigJpeg = Buffer.concat([jpeg, Buffer.alloc(LIMITS.avatarMaxBytes)]);
    const big = multipartFile('file', 'big.jpg', bigJpeg);
    for (const { payload, contentType } of [textAsPng, gif, big]) {
      const response = await h.request({
        method: 'POST',
        url: '/api/me/avatar',
        cookie,
        payload,
        headers: { 'content-type': contentType },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: MSG.avatarInvalid });
    }
  });

  it('rejects avatar names that try to leave the avatar folder', async () => {
    const response = await h.request({ method: 'GET', url: '/api/avatars/..%2F.session-secret' });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('test-secret');
  });
});
