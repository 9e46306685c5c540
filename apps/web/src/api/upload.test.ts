import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contract, MSG } from '@guji/shared';
import { ApiError } from './client.ts';
import { readUploadAnswer } from './upload.ts';

const upload = contract({
  method: 'POST',
  path: '/api/volumes/:id/zip',
  summary: 'test',
  tags: ['test'],
  response: z.object({ pages: z.number() }),
});

function failure(status: number, text: string): ApiError {
  try {
    readUploadAnswer(upload, status, text);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('no failure');
}

describe('the answer of an upload', () => {
  it('is the body when it matches the contract', () => {
    expect(readUploadAnswer(upload, 200, '{"pages":3}')).toEqual({ pages: 3 });
  });

  it('fails loudly when the body drifted from the contract (checked in tests and the e2e build)', () => {
    const error = failure(200, '{"pageCount":3}');
    expect(error.code).toBe('CONTRACT');
    expect(error.message).toContain('POST /api/volumes/:id/zip 的回答与契约不符');
  });

  it("carries the server's status, code and message when refused", () => {
    const error = failure(413, '{"code":"TOO_LARGE","message":"文件过大"}');
    expect([error.status, error.code, error.message]).toEqual([413, 'TOO_LARGE', '文件过大']);
  });

  it('words a refusal without a JSON body, a success without one and a lost connection', () => {
    const proxy = failure(502, '<html>Bad Gateway</html>');
    expect([proxy.status, proxy.code, proxy.message]).toEqual([502, '502', '上传失败']);
    const empty = failure(200, '');
    expect([empty.code, empty.message]).toEqual(['NOT_JSON', MSG.serverException]);
    const lost = failure(0, '');
    expect([lost.code, lost.message]).toEqual(['NETWORK', '网络错误，上传失败']);
  });
});
