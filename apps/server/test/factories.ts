import type { Role } from '@guji/shared';
import { GOOD_PASSWORD, type HttpHarness } from './http.ts';
import { createBook } from './catalog-factory.ts';

/**
 * The data a test makes for itself (issue 15): users, books with volumes and pages, print orders and
 * reservations, each with names no other test uses, so any test runs alone and in any order.
 * Everything goes through the real services or the HTTP API, never around them.
 */

let made = 0;
/** A name and a mobile number no other user of this process has. */
function unique(prefix: string): { loginName: string; phone: string } {
  made++;
  return {
    loginName: `${prefix}${made}`,
    phone: `13${String(100_000_000 + ((process.pid * 1000 + made) % 900_000_000)).slice(-9)}`,
  };
}

export interface MadeUser {
  loginName: string;
  cookie: string;
  /** The mobile number a reader registered with (staff have none). */
  phone?: string;
}

/**
 * A registered reader (registered through the API with an SMS code), signed in; `fields` adds what the
 * registration form may carry besides (a real name).
 */
export async function makeReader(
  h: HttpHarness,
  prefix = 'reader',
  fields: { realName?: string } = {},
): Promise<MadeUser> {
  const { loginName, phone } = unique(prefix);
  const registered = await h.register({ loginName, phone, ...fields });
  if (registered.statusCode !== 200) throw new Error(`registration failed: ${registered.body}`);
  return { loginName, phone, cookie: (await h.login(loginName, GOOD_PASSWORD)).cookie };
}

/** A member of staff with the given roles (reader always among them), signed in. */
export async function makeStaff(h: HttpHarness, roles: Role[], prefix = 'staff'): Promise<MadeUser> {
  const { loginName } = unique(prefix);
  await h.context.services.auth.upsertAccount({
    loginName,
    password: GOOD_PASSWORD,
    roles: [...new Set<Role>(['reader', ...roles])],
  });
  return { loginName, cookie: (await h.login(loginName, GOOD_PASSWORD)).cookie };
}

export type CreatedBook = Awaited<ReturnType<typeof createBook>>;

/** A published, open book with volumes of the given page counts, pyramids made (options: catalog-factory.ts). */
export function makeBook(
  h: HttpHarness,
  options: Parameters<typeof createBook>[1] = {},
): Promise<CreatedBook> {
  return createBook(h.context, options);
}

export interface MadeOrder {
  orderNum: string;
  totalFen: number;
  totalPage: number;
}

/** An unpaid print order of the first `pages` pages of a book's first volume, cash at the desk, picked up. */
export async function makePrintOrder(
  h: HttpHarness,
  reader: MadeUser,
  book: CreatedBook,
  pages = 1,
  remoteAddress = '203.0.113.9',
): Promise<MadeOrder> {
  const as = { cookie: reader.cookie, remoteAddress };
  const added = await h.request({
    method: 'POST',
    url: '/api/print/items',
    body: { fascicleId: book.volumeIds[0], from: 1, to: pages },
    ...as,
  });
  if (added.statusCode !== 200) throw new Error(`adding print items failed: ${added.body}`);
  const unpaid = (await h.request({ method: 'GET', url: '/api/print/items?tab=unpaid', ...as })).json<{
    records: Array<{ id: number }>;
  }>().records;
  const order = await h.request({
    method: 'POST',
    url: '/api/print/orders',
    body: { itemIds: unpaid.map((i) => i.id), extract: 0, payment: 0 },
    ...as,
  });
  if (order.statusCode !== 200) throw new Error(`checkout failed: ${order.body}`);
  return order.json<MadeOrder>();
}

/** A reader's reservation application for a book (by its call number and title). */
export async function makeReservation(
  h: HttpHarness,
  reader: MadeUser,
  book: { callNumber: string; title: string },
  applyDays = 'ANB0402',
): Promise<{ id: number; auditStatus: number }> {
  const response = await h.request({
    method: 'POST',
    url: '/api/reservations',
    cookie: reader.cookie,
    body: { callNumber: book.callNumber, title: book.title, applyDays, detailReason: '校勘' },
  });
  if (response.statusCode !== 200) throw new Error(`reservation failed: ${response.body}`);
  return response.json<{ reservation: { id: number; auditStatus: number } }>().reservation;
}
