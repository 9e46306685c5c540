import type { Config } from '../config.ts';
import type { Transact } from '../db/query.ts';
import type { TableWrites } from '../db/table-writes.ts';
import type { Clock } from '../lib/clock.ts';
import type { FileStorage } from '../storage/storage.ts';
import type { Repositories } from './repositories.ts';

/** What every group of services is built from (wiring/*.ts; put together in context.ts). */
export interface WiringBase {
  config: Config;
  repos: Repositories;
  clock: Clock;
  /** The site secret (session-secret.ts): HMAC keys of captchas, SMS codes, payment and IIIF tokens. */
  secret: string;
  storage: FileStorage;
  transact: Transact;
  /** Changes this process made to books, volumes and pages (db/table-writes.ts). */
  catalogueWrites: TableWrites;
}
