import type { Config } from '../config.ts';
import { S3FileStorage } from './s3-storage.ts';
import { LocalFileStorage, type FileStorage } from './storage.ts';

/** The file storage the configuration names: DATA_DIR on local disk, or the S3-compatible store. */
export function openStorage(config: Pick<Config, 'dataDir' | 'storage'>): FileStorage {
  if (config.storage.kind === 'local') return new LocalFileStorage(config.dataDir);
  const { kind: _kind, ...options } = config.storage;
  return new S3FileStorage(options);
}
