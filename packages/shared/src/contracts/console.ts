import {
  AdminBook,
  AdminBookQuery,
  AdminUser,
  AuditEntry,
  AuditQuery,
  CreateBookRequest,
  CreateClassRequest,
  Dashboard,
  DashboardQuery,
  ImportedBooks,
  JobEntry,
  JobQuery,
  JobStats,
  ReadingRoomAddressesRequest,
  ReadingRoomAddressList,
  RenameClassRequest,
  SetDisabledRequest,
  SetReaderCategoryRequest,
  SetRolesRequest,
  SmsOutboxList,
  SmsOutboxQuery,
  TemporaryPassword,
  TerminalActivation,
  TerminalList,
  UserQuery,
} from '../api/admin.ts';
import { IdParams, OkBody, paged } from '../api/common.ts';
import { CreatedTerminal, CreateTerminalRequest, Terminal } from '../api/site.ts';
import { SmsStatus } from '../api/sms.ts';
import { contract } from '../contract.ts';

const tags = ['admin'];

/** The console's catalogue (catalogue staff): every book, a new one, deleting an unused one. */
export const adminBooksApi = {
  list: contract({
    method: 'GET',
    path: '/api/admin/books',
    summary:
      'Every book of the catalogue, hidden ones too, 10 a page, newest first; by title or call number and state',
    tags,
    query: AdminBookQuery,
    response: paged(AdminBook),
  }),
  create: contract({
    method: 'POST',
    path: '/api/admin/books',
    summary: 'Catalogue a new book of the library (volumes and pages are added afterwards)',
    tags,
    body: CreateBookRequest,
    response: AdminBook,
  }),
  remove: contract({
    method: 'DELETE',
    path: '/api/admin/books/:id',
    summary:
      'Delete a book with its volumes and pages; refused (409) while readers have collections, notes, comments, reservations or prints of it',
    tags,
    params: IdParams,
    response: OkBody,
  }),
};

/** The console's dashboard: figures day by day. */
export const dashboardApi = {
  get: contract({
    method: 'GET',
    path: '/api/admin/dashboard',
    summary:
      'Per-day readers, page views, book openings, searches, registrations, orders, revenue and OCR pages',
    tags,
    query: DashboardQuery,
    response: Dashboard,
  }),
};

/** The job monitor (administrators). */
export const jobsApi = {
  list: contract({
    method: 'GET',
    path: '/api/admin/jobs',
    summary: 'Jobs, newest first, 20 a page, by status',
    tags,
    query: JobQuery,
    response: paged(JobEntry),
  }),
  stats: contract({
    method: 'GET',
    path: '/api/admin/jobs/stats',
    summary: 'Jobs by status, and finished in the last hour by name',
    tags,
    response: JobStats,
  }),
  retry: contract({
    method: 'POST',
    path: '/api/admin/jobs/:id/retry',
    summary: 'Run a failed job again',
    tags,
    params: IdParams,
    response: OkBody,
  }),
  cancel: contract({
    method: 'POST',
    path: '/api/admin/jobs/:id/cancel',
    summary: 'Cancel a queued job',
    tags,
    params: IdParams,
    response: OkBody,
  }),
};

/** The audit log of administrative changes. */
export const auditApi = {
  list: contract({
    method: 'GET',
    path: '/api/admin/audit',
    summary: 'Audit log of administrative changes, newest first, 20 a page',
    tags,
    query: AuditQuery,
    response: paged(AuditEntry),
  }),
};

/** The console's users: search, roles, reader category, disable, reset password. */
export const adminUsersApi = {
  list: contract({
    method: 'GET',
    path: '/api/admin/users',
    summary: 'Users by login name, nickname, real name, phone or email, 20 a page',
    tags,
    query: UserQuery,
    response: paged(AdminUser),
  }),
  setRoles: contract({
    method: 'PUT',
    path: '/api/admin/users/:id/roles',
    summary: "A user's roles (an administrator cannot take the administrator role from themselves)",
    tags,
    params: IdParams,
    body: SetRolesRequest,
    response: OkBody,
  }),
  setCategory: contract({
    method: 'PUT',
    path: '/api/admin/users/:id/category',
    summary:
      "A user's reader category (spec user flag): '1' ordinary, '2' research reader (reads every published book remotely) until an optional last day",
    tags,
    params: IdParams,
    body: SetReaderCategoryRequest,
    response: OkBody,
  }),
  setDisabled: contract({
    method: 'POST',
    path: '/api/admin/users/:id/disable',
    summary: 'Disable (its sessions end at once) or enable a user',
    tags,
    params: IdParams,
    body: SetDisabledRequest,
    response: OkBody,
  }),
  resetPassword: contract({
    method: 'POST',
    path: '/api/admin/users/:id/reset-password',
    summary: 'A new temporary password (shown once; every session of the user ends)',
    tags,
    params: IdParams,
    response: TemporaryPassword,
  }),
};

/** The classification dictionary (spec §3: name and value; codes are dotted paths, JING.SISHU). */
export const classDictionaryApi = {
  create: contract({
    method: 'POST',
    path: '/api/admin/classifications',
    summary: 'Add a classification (its code extends its parent’s)',
    tags,
    body: CreateClassRequest,
    response: OkBody,
  }),
  rename: contract({
    method: 'PUT',
    path: '/api/admin/classifications/:id',
    summary: 'Rename a classification (its code stays: books refer to it)',
    tags,
    params: IdParams,
    body: RenameClassRequest,
    response: OkBody,
  }),
  remove: contract({
    method: 'DELETE',
    path: '/api/admin/classifications/:id',
    summary: 'Delete a classification no book uses (nor its sub-classes)',
    tags,
    params: IdParams,
    response: OkBody,
  }),
};

/** Messages the development SMS provider would have sent. */
export const smsOutboxApi = {
  list: contract({
    method: 'GET',
    path: '/api/admin/sms-outbox',
    summary: 'Messages the development SMS provider would have sent (administrators)',
    tags,
    query: SmsOutboxQuery,
    response: SmsOutboxList,
  }),
  status: contract({
    method: 'GET',
    path: '/api/admin/sms-status',
    summary: 'The live SMS provider, its sign name and templates, and what it still lacks (administrators)',
    tags,
    response: SmsStatus,
  }),
};

/** The reading room's address ranges. */
export const readingRoomApi = {
  addresses: contract({
    method: 'GET',
    path: '/api/admin/reading-room/addresses',
    summary:
      "The reading room's address ranges (READING_ROOM_CIDRS until saved here), and this request's address",
    tags,
    response: ReadingRoomAddressList,
  }),
  saveAddresses: contract({
    method: 'PUT',
    path: '/api/admin/reading-room/addresses',
    summary:
      'Replace the address ranges (IPv4 or IPv6, address or address/prefix); every server follows within 30 s',
    tags,
    body: ReadingRoomAddressesRequest,
    response: OkBody,
  }),
};

/** Reading-room terminals: tokens administrators issue and revoke, and the activation link. */
export const terminalsApi = {
  list: contract({
    method: 'GET',
    path: '/api/admin/terminals',
    summary: 'Reading-room terminals (administrators)',
    tags,
    response: TerminalList,
  }),
  create: contract({
    method: 'POST',
    path: '/api/admin/terminals',
    summary: 'Issue a reading-room terminal token (shown once, with its activation link)',
    tags,
    body: CreateTerminalRequest,
    response: CreatedTerminal,
  }),
  revoke: contract({
    method: 'DELETE',
    path: '/api/admin/terminals/:id',
    summary: 'Revoke a terminal: it leaves the reading room at once',
    tags,
    params: IdParams,
    response: Terminal,
  }),
  activate: contract({
    method: 'GET',
    path: '/api/reading-room/activate',
    summary: 'Open on a terminal: keeps its token as a cookie and goes to the home page',
    tags,
    query: TerminalActivation,
    response: null,
  }),
};

/** Import of a package zip (metadata.json or metadata.csv plus image folders). */
export const importApi = {
  upload: contract({
    method: 'POST',
    path: '/api/admin/import',
    summary:
      'Import books from a zip package (catalogue staff); re-importing the same sourceKey replaces the book',
    tags,
    multipart: true,
    response: ImportedBooks,
  }),
};
