import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { S3FileStorage, type S3StorageOptions } from '../src/storage/s3-storage.ts';

/** A real S3-protocol server (s3rver) on a free loopback port, with its files in a temporary folder. */
export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** Options for an S3FileStorage on this server under `prefix` ('' or ending in '/'). */
  options(prefix?: string): S3StorageOptions;
  /** An S3FileStorage on this server under `prefix`. */
  storage(prefix?: string): S3FileStorage;
  stop(): Promise<void>;
}

/** Starts s3rver in this process with one bucket; `stop` closes it and removes its files. */
export async function startS3Server(bucket = 'guji-test'): Promise<TestS3Server> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'guji-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const opened: S3FileStorage[] = [];
  const options = (prefix = ''): S3StorageOptions => ({
    bucket,
    prefix,
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    // s3rver's fixed development credentials.
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  return {
    endpoint,
    bucket,
    options,
    storage: (prefix = '') => {
      const storage = new S3FileStorage(options(prefix));
      opened.push(storage);
      return storage;
    },
    stop: async () => {
      for (const storage of opened) storage.close();
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
