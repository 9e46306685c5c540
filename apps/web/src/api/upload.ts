/**
 * Uploads one file as multipart field `file` with XMLHttpRequest, for its upload progress (fetch reports
 * none). Resolves with the server's JSON answer; rejects with its message.
 */
export function uploadWithProgress<T>(
  url: string,
  file: File,
  onProgress: (percent: number) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      let body: unknown = undefined;
      try {
        body = JSON.parse(xhr.responseText) as unknown;
      } catch {
        // Not JSON: the default message below.
      }
      if (xhr.status === 200) resolve(body as T);
      else reject(new Error((body as { message?: string } | undefined)?.message ?? '上传失败'));
    };
    xhr.onerror = () => reject(new Error('网络错误，上传失败'));
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}
