import { MSG, type Contract, type ResponseOf } from '@guji/shared';
import { ApiError, checkResponse } from './client.ts';

/**
 * The answer of an upload as `call()` would give it: the body checked against the route's contract on
 * success, else an `ApiError` with the server's status, code and message (or a default message).
 */
export function readUploadAnswer<C extends Contract>(c: C, status: number, text: string): ResponseOf<C> {
  let body: unknown = undefined;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    // Not JSON (a proxy's error page, an empty answer): handled below.
  }
  if (status === 0) throw new ApiError(0, 'NETWORK', '网络错误，上传失败');
  if (status >= 200 && status < 300) {
    if (body === undefined) throw new ApiError(status, 'NOT_JSON', MSG.serverException);
    checkResponse(c, body);
    return body as ResponseOf<C>;
  }
  const error = (body ?? {}) as { code?: unknown; message?: unknown };
  throw new ApiError(
    status,
    typeof error.code === 'string' || typeof error.code === 'number' ? String(error.code) : String(status),
    typeof error.message === 'string' && error.message ? error.message : '上传失败',
  );
}

/**
 * Uploads one file as the multipart field `file` of route `c` at `url` (from `hrefOf(c, …)`) with
 * XMLHttpRequest, for its upload progress (fetch reports none). Resolves with the answer, checked against
 * the contract as `call()` checks it; rejects with an `ApiError`.
 */
export function uploadWithProgress<C extends Contract>(
  c: C,
  url: string,
  file: File,
  onProgress: (percent: number) => void,
): Promise<ResponseOf<C>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(c.method, url);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      try {
        resolve(readUploadAnswer(c, xhr.status, xhr.responseText));
      } catch (error) {
        reject(error instanceof Error ? error : new ApiError(xhr.status, 'UPLOAD', '上传失败'));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK', '网络错误，上传失败'));
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}
