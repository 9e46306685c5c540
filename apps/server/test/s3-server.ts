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
  /** Stops answering (connections are refused) but keeps the stored files, until `resume`. */
  pause(): Promise<void>;
  /** Answers again on the same port with the same files. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/** The environment that puts a library's files in the test's S3-protocol server under `prefix`. */
export function s3Env(server: TestS3Server, prefix: string): Record<string, string> {
  return {
    STORAGE_URL: `s3://${server.bucket}/${prefix}`,
    AWS_ENDPOINT_URL: server.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
  };
}

/** Starts s3rver in this process with one bucket; `stop` closes it and removes its files. */
export async function startS3Server(bucket = 'guji-test'): Promise<TestS3Server> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'guji-s3-'));
  const open = (port: number) =>
    new S3rver({ address: '127.0.0.1', port, silent: true, directory, configureBuckets: [{ name: bucket }] });
  let server = open(0);
  const { port } = await server.run();
  let running = true;
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
    pause: async () => {
      await server.close();
      running = false;
    },
    resume: async () => {
      server = open(port);
      await server.run();
      running = true;
    },
    stop: async () => {
      for (const storage of opened) storage.close();
      if (running) await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
