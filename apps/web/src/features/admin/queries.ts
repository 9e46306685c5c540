/**
 * The console's data: every call the console makes, and its query keys (issue 33 part 4: no component
 * of the console calls the API itself).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  adminBooksApi,
  adminUsersApi,
  auditApi,
  catalogApi,
  classDictionaryApi,
  dashboardApi,
  jobsApi,
  marcApi,
  readingRoomApi,
  reservationsApi,
  siteApi,
  smsOutboxApi,
  terminalsApi,
  type CreateBookRequest,
  type JobQuery,
  type QueryOf,
  type MarcImportQuery,
  type ReservationDuration,
  type Role,
  type SetReaderCategoryRequest,
  type SiteSettings,
  type UpdateBookRequest,
  type UserQuery,
} from '@guji/shared';
import { call } from '../../api/client.ts';

export const adminKeys = {
  audit: ['admin-audit'] as const,
  books: ['admin-books'] as const,
  dashboard: ['admin-dashboard'] as const,
  jobs: ['admin-jobs'] as const,
  jobStats: ['admin-jobs-stats'] as const,
  readingRoomAddresses: ['admin-reading-room-addresses'] as const,
  terminals: ['admin-terminals'] as const,
  sms: ['admin-sms'] as const,
  smsStatus: ['admin-sms-status'] as const,
  users: ['admin-users'] as const,
};

/** The audit log, a page at a time (GET /api/admin/audit). */
export function useAuditLog(action: string | undefined, actor: string | undefined, page: number) {
  return useQuery({
    queryKey: [...adminKeys.audit, action, actor, page],
    queryFn: () => call(auditApi.list, { query: { pageNum: page, action, actor } }),
    placeholderData: keepPreviousData,
  });
}

/** The catalogue's books as staff see them, hidden and unpublished ones too. */
export function useAdminBooks(
  text: string,
  state: QueryOf<typeof adminBooksApi.list>['state'],
  page: number,
) {
  return useQuery({
    queryKey: [...adminKeys.books, text, state, page],
    queryFn: () => call(adminBooksApi.list, { query: { pageNum: page, text, state } }),
    placeholderData: keepPreviousData,
  });
}

export const createBook = (body: CreateBookRequest) => call(adminBooksApi.create, { body });
export const updateBook = (catalogId: number, body: UpdateBookRequest) =>
  call(catalogApi.update, { params: { catalogId }, body });
export const removeBook = (catalogId: number) => call(adminBooksApi.remove, { params: { id: catalogId } });

export const createClass = (parentId: number | null, code: string, name: string) =>
  call(classDictionaryApi.create, { body: { parentId, code, name } });
export const renameClass = (id: number, name: string) =>
  call(classDictionaryApi.rename, { params: { id }, body: { name } });
export const removeClass = (id: number) => call(classDictionaryApi.remove, { params: { id } });

/** The dashboard of the last `days` days, refreshed every minute. */
export function useDashboard(days: number) {
  return useQuery({
    queryKey: [...adminKeys.dashboard, days],
    queryFn: () => call(dashboardApi.get, { query: { days } }),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
}

export const updateDuration = (code: string, body: Pick<ReservationDuration, 'label' | 'days'>) =>
  call(reservationsApi.updateDuration, { params: { code }, body });

/** The job queue, a page at a time, refreshed every five seconds. */
export function useJobs(status: JobQuery['status'], page: number) {
  return useQuery({
    queryKey: [...adminKeys.jobs, status, page],
    queryFn: () => call(jobsApi.list, { query: { pageNum: page, status } }),
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
  });
}

/** How many jobs wait, run, failed…; asked every `interval` ms while `enabled`. */
export function useJobStats(interval: number, enabled = true) {
  return useQuery({
    queryKey: adminKeys.jobStats,
    queryFn: () => call(jobsApi.stats, {}),
    enabled,
    refetchInterval: interval,
  });
}

export const jobAction = (id: number, action: 'retry' | 'cancel') =>
  call(jobsApi[action], { params: { id } });

/** A MARC file read, not saved: what an import would change. */
export const previewMarc = (format: MarcImportQuery['format'], body: FormData) =>
  call(marcApi.preview, { query: { format }, body }, { quiet: true });
export const importMarc = (format: MarcImportQuery['format'], body: FormData) =>
  call(marcApi.import, { query: { format }, body }, { quiet: true });

/** The reading room's addresses (CIDR ranges). */
export function useReadingRoomAddresses() {
  return useQuery({
    queryKey: adminKeys.readingRoomAddresses,
    queryFn: () => call(readingRoomApi.addresses, {}),
  });
}

export const saveReadingRoomAddresses = (cidrs: string[]) =>
  call(readingRoomApi.saveAddresses, { body: { cidrs } }, { quiet: true });

/** The reading room's registered terminals. */
export function useTerminals() {
  return useQuery({ queryKey: adminKeys.terminals, queryFn: () => call(terminalsApi.list, {}) });
}

export const createTerminal = (name: string) => call(terminalsApi.create, { body: { name } });
export const revokeTerminal = (id: number) => call(terminalsApi.revoke, { params: { id } });

export const updateSite = (values: Partial<SiteSettings>) => call(siteApi.update, { body: values });

/** The development SMS outbox, newest first (optionally one phone's). */
export function useSmsOutbox(phone: string) {
  return useQuery({
    queryKey: [...adminKeys.sms, phone],
    queryFn: () => call(smsOutboxApi.list, { query: { limit: 100, phone } }),
  });
}

/** Which SMS provider sends, and whether it is set up. */
export function useSmsStatus() {
  return useQuery({ queryKey: adminKeys.smsStatus, queryFn: () => call(smsOutboxApi.status, {}) });
}

/** The console's users, a page at a time. */
export function useAdminUsers(q: string, flag: UserQuery['flag'], page: number) {
  return useQuery({
    queryKey: [...adminKeys.users, q, flag, page],
    queryFn: () => call(adminUsersApi.list, { query: { pageNum: page, q, flag } }),
    placeholderData: keepPreviousData,
  });
}

export const setUserRoles = (id: number, roles: Role[]) =>
  call(adminUsersApi.setRoles, { params: { id }, body: { roles } });
export const setUserDisabled = (id: number, disabled: boolean) =>
  call(adminUsersApi.setDisabled, { params: { id }, body: { disabled } });
export const resetUserPassword = (id: number) => call(adminUsersApi.resetPassword, { params: { id } });
export const setReaderCategory = (id: number, body: SetReaderCategoryRequest) =>
  call(adminUsersApi.setCategory, { params: { id }, body });
