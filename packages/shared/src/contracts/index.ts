import type { Contract } from '../contract.ts';
import * as accounts from './accounts.ts';
import * as catalog from './catalog.ts';
import * as consoleRoutes from './console.ts';
import * as marc from './marc.ts';
import * as ocr from './ocr.ts';
import * as ownBooks from './own-books.ts';
import * as personal from './personal.ts';
import * as print from './print.ts';
import * as refunds from './refunds.ts';
import * as site from './site.ts';
import * as publicApi from './public-api.ts';

export * from './accounts.ts';
export * from './catalog.ts';
export * from './console.ts';
export * from './marc.ts';
export * from './ocr.ts';
export * from './own-books.ts';
export * from './personal.ts';
export * from './print.ts';
export * from './refunds.ts';
export * from './site.ts';
export * from './public-api.ts';

const isContract = (value: unknown): value is Contract =>
  typeof value === 'object' && value !== null && 'method' in value && 'path' in value;

/**
 * Every route contract, for the check that the server serves each one. A contracts file exports
 * groups (objects of contracts), one per resource.
 */
export const allContracts: readonly Contract[] = [
  accounts,
  catalog,
  consoleRoutes,
  marc,
  ocr,
  ownBooks,
  personal,
  print,
  refunds,
  site,
  publicApi,
]
  .flatMap((module) => Object.values(module as Record<string, unknown>))
  .flatMap((group): unknown[] => (typeof group === 'object' && group !== null ? Object.values(group) : []))
  .filter(isContract);
