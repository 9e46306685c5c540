import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { MSG } from '@guji/shared';
import { unavailable } from '../errors.ts';
import { checkKey, checkPrefix, type FileStorage, type StoredObject } from './storage.ts';

/** Where an S3-compatible store is and how to sign for it (config.ts reads it from the environment). */
export interface S3StorageOptions {
  bucket: string;
  /** Put before every key ('' or ending in '/'), so several libraries can share a bucket. */
  prefix: string;
  /** The store's address (MinIO, Aliyun OSS, Tencent COS, Ceph RGW); undefined: AWS itself. */
  endpoint: string | undefined;
  region: string;
  /** `bucket` in the path rather than the host name (MinIO, Ceph and most local servers want this). */
  forcePathStyle: boolean;
  /** Unset: the SDK's own chain (instance role, shared profile). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
}

const notFound = (error: unknown): boolean => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/**
 * True when the store did not answer (connection refused or reset, a timeout) or answered that it
 * cannot serve now (5xx, SlowDown): the request may succeed later. A 4xx answer is not that.
 */
export function isStoreUnreachable(error: unknown): boolean {
  const e = error as { $metadata?: { httpStatusCode?: number }; code?: string; name?: string };
  const status = e.$metadata?.httpStatusCode;
  if (status !== undefined) return status >= 500;
  return NETWORK_FAULTS.has(e.code ?? '') || e.name === 'TimeoutError';
}

const NETWORK_FAULTS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/**
 * Files in an S3-compatible object store through `@aws-sdk/client-s3`. Keys are the same relative keys
 * as on local disk, under `prefix`. Ranged GETs serve single tiles of a pyramid without fetching it whole.
 */
export class S3FileStorage implements FileStorage {
  readonly kind = 's3' as const;
  readonly client: S3Client;

  constructor(private readonly options: S3StorageOptions) {
    this.client = new S3Client({
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      // Checksums only where the protocol demands them: several S3-compatible stores refuse the newer
      // default (CRC32 trailers on every upload).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // An unreachable store fails fast (readiness, clear errors) instead of hanging requests.
      requestHandler: { connectionTimeout: 3000, requestTimeout: 60_000 },
      maxAttempts: 3,
    });
    // After the SDK's retries: a store that cannot be reached is a 503 with a clear message for the
    // reader (errors.ts), not a 500; the cause stays in the server's log.
    this.client.middlewareStack.add(
      (next) => async (args) => {
        try {
          return await next(args);
        } catch (error) {
          if (isStoreUnreachable(error))
            throw unavailable('STORAGE_UNAVAILABLE', MSG.storageUnavailable, error);
          throw error;
        }
      },
      { step: 'initialize', name: 'gujiStoreUnavailable' },
    );
  }

  private objectKey(key: string): string {
    return this.options.prefix + checkKey(key);
  }

  localPath(): undefined {
    return undefined;
  }

  async put(key: string, data: Buffer): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key), Body: data }),
    );
  }

  async putFile(key: string, file: string): Promise<void> {
    const { size } = await fs.stat(file);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.options.bucket,
        Key: this.objectKey(key),
        Body: createReadStream(file),
        ContentLength: size,
      }),
    );
  }

  private async body(key: string, range?: string): Promise<Readable | undefined> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.options.bucket,
          Key: this.objectKey(key),
          ...(range ? { Range: range } : {}),
        }),
      );
      return answer.Body as Readable;
    } catch (error) {
      if (notFound(error)) return undefined;
      throw error;
    }
  }

  async get(key: string): Promise<Buffer | undefined> {
    const body = await this.body(key);
    return body && Buffer.concat(await body.toArray());
  }

  async getRange(key: string, offset: number, length: number): Promise<Buffer | undefined> {
    if (length <= 0) return (await this.stat(key)) ? Buffer.alloc(0) : undefined;
    try {
      const body = await this.body(key, `bytes=${offset}-${offset + length - 1}`);
      return body && Buffer.concat(await body.toArray());
    } catch (error) {
      // 416: the range starts at or past the end of the file.
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 416)
        return Buffer.alloc(0);
      throw error;
    }
  }

  async getToFile(key: string, file: string): Promise<boolean> {
    const body = await this.body(key);
    if (!body) return false;
    await pipeline(body, createWriteStream(file));
    return true;
  }

  async stat(key: string): Promise<{ size: number } | undefined> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }),
      );
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (notFound(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(
      new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }),
    );
  }

  async deletePrefix(prefix: string): Promise<number> {
    let removed = 0;
    let batch: string[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const answer = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.options.bucket,
          Delete: { Objects: batch.map((key) => ({ Key: this.objectKey(key) })), Quiet: true },
        }),
      );
      const failed = answer.Errors ?? [];
      if (failed.length > 0)
        throw new Error(
          `对象存储删除失败 / delete failed: ${failed[0]?.Key ?? ''} ${failed[0]?.Message ?? ''}`,
        );
      removed += batch.length;
      batch = [];
    };
    // Listed first, deleted after: deleting while paging could skip keys on some stores.
    const keys: string[] = [];
    for await (const { key } of this.list(prefix)) keys.push(key);
    for (const key of keys) {
      batch.push(key);
      if (batch.length === 1000) await flush();
    }
    await flush();
    return removed;
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    const full = this.options.prefix + checkPrefix(prefix);
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.options.bucket,
          Prefix: full,
          ...(token ? { ContinuationToken: token } : {}),
        }),
      );
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        yield { key: object.Key.slice(this.options.prefix.length), size: object.Size ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.options.bucket }));
  }

  /** Closes the client's connections. */
  close(): void {
    this.client.destroy();
  }
}
