import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table types. Dates are UTC ISO-8601 text and booleans are 0/1 integers on both dialects
 * (DESIGN.md §3), so every query reads the same on SQLite and PostgreSQL.
 */
export interface UsersTable {
  id: Generated<number>;
  login_name: string;
  password_hash: string;
  nick_name: string | null;
  real_name: string | null;
  id_card: string | null;
  phone: string | null;
  email: string | null;
  post: string | null;
  address: string | null;
  avatar_file: string | null;
  failed_logins: Generated<number>;
  locked_until: string | null;
  disabled: Generated<number>;
  /** Reader category (the spec's flag): '1' ordinary, '2' research reader (reads every book remotely). */
  reader_flag: Generated<string>;
  /** When a research reader's category ends (exclusive); null: no end. */
  flag_expires_at: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

export interface UserRolesTable {
  user_id: number;
  role: string;
}

export interface SessionsTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  created_at: string;
  expires_at: string;
  last_seen_at: string;
  revoked_at: string | null;
  ip: string | null;
  user_agent: string | null;
}

export interface CaptchasTable {
  id: string;
  answer_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface SmsCodesTable {
  id: Generated<number>;
  phone: string;
  purpose: string;
  code_hash: string;
  ip: string | null;
  created_at: string;
  expires_at: string;
  attempts: Generated<number>;
  verified_at: string | null;
  consumed_at: string | null;
}

export interface SmsOutboxTable {
  id: Generated<number>;
  phone: string;
  text: string;
  created_at: string;
}

export interface SsoNoncesTable {
  nonce: string;
  used_at: string;
}

/** Failed logins per login name and client address; `client_key` '*' counts every address. */
export interface LoginFailuresTable {
  login_key: string;
  client_key: string;
  failures: Generated<number>;
  window_started_at: string;
  locked_until: string | null;
}

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

export interface RateLimitsTable {
  key: string;
  hits: number;
  /** Milliseconds since 1970 (PostgreSQL bigint: read back as a string). */
  window_ends: number | string;
}

/** What /oai has shown of each book that was ever public (migration 0022, kept by triggers). */
export interface OaiRecordsTable {
  book_id: number;
  /** UTC to the second: 2026-11-26T08:00:00Z. */
  datestamp: string;
  /** 1 once the book was hidden, withdrawn or deleted. */
  deleted: number;
  class_code: string | null;
}

export interface UploadSlotsTable {
  user_id: number;
  /** 0 … UPLOADS_PER_USER - 1. */
  slot: number;
  /** The upload holding the slot (a random id). */
  holder: string;
  /** Milliseconds since 1970 when the lease ends (PostgreSQL bigint: read back as a string). */
  expires_at: number | string;
}

export interface JobsTable {
  id: Generated<number>;
  name: string;
  data: string;
  status: string;
  attempts: Generated<number>;
  max_attempts: number;
  run_at: string;
  locked_by: string | null;
  locked_at: string | null;
  progress: Generated<number>;
  progress_message: string | null;
  last_error: string | null;
  result: string | null;
  dedupe_key: string | null;
  /** The request that queued the job (its log lines carry it); null for jobs queued outside a request. */
  request_id: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface ClassificationsTable {
  id: Generated<number>;
  code: string;
  name: string;
  parent_id: number | null;
  sort: Generated<number>;
}

export interface BooksTable {
  id: Generated<number>;
  /** Stable key of an imported book (e.g. `demo:lunyu`), so a re-run updates instead of duplicating. */
  source_key: string | null;
  title: string;
  /** Folded title, one space between characters (search/fold.ts); written with the title. */
  title_search: string | null;
  author: string | null;
  publish_dynasty: string | null;
  coverage_dynasty: string | null;
  edition_type: string | null;
  call_number: string | null;
  class_code: string | null;
  /** The spec's isHide = 1. */
  is_visible: Generated<number>;
  /** The spec's isRecommend = 1: open for online reading. */
  is_open: Generated<number>;
  /** The spec's consumerId: the user who added an own book; null for the library's books. */
  owner_id: number | null;
  /** Own-book review state: '0' not submitted, '1' under review, '2' public, '3' refused. */
  audit_status: Generated<string>;
  actual_volume: number | null;
  book_number: number | null;
  /** Catalogue notes (附注), one a line: MARC21 500, CNMARC 300 (migration 0023). */
  notes: Generated<string | null>;
  view_count: Generated<number>;
  /** Why the last review refused an own book. */
  refuse_reason: Generated<string | null>;
  submitted_at: Generated<string | null>;
  /** 1 for the hidden book that holds a user's single images (spec isLonely). */
  is_lonely: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface VolumesTable {
  id: Generated<number>;
  book_id: number;
  name: string;
  introduction: string | null;
  sort: Generated<number>;
  created_at: string;
}

export interface PagesTable {
  id: Generated<number>;
  volume_id: number;
  book_id: number;
  /** 1-based order in the volume. */
  seq: number;
  name: string;
  width: number;
  height: number;
  master_key: string;
  pyramid_key: string | null;
  /** 'pending' until the pyramid is made, then 'ready' (or 'failed'). */
  status: Generated<string>;
  ocr_json: string | null;
  created_at: string;
  /** Bytes of an uploaded master (own books), for storage quotas. */
  file_bytes: Generated<number | null>;
}

export interface DirectoriesTable {
  id: Generated<number>;
  volume_id: number;
  book_id: number;
  parent_id: number | null;
  name: string;
  page_id: number | null;
  sort: Generated<number>;
}

export interface BookPrivilegesTable {
  id: Generated<number>;
  user_id: number;
  book_id: number;
  starts_at: string;
  expires_at: string;
  created_at: string;
  /** The approved reservation that granted it, if any. */
  reservation_id: Generated<number | null>;
}

/** The recognised text of a page of a searchable book, in reading order (the full-text index's rows). */
export interface PageTextsTable {
  page_id: number;
  book_id: number;
  volume_id: number;
  text: string;
  updated_at: string;
}

/** Every OCR result a page has had: ground truth, an engine run, an import, a proofreading. */
export interface OcrVersionsTable {
  id: Generated<number>;
  page_id: number;
  version: number;
  /** `typeset` (the demo's ground truth), `ocr:<engine>`, `import:alto`, `import:hocr`, `proofread`. */
  source: string;
  ocr_json: string;
  created_by: number | null;
  created_at: string;
  /** What the engine noticed (JSON array of `{ code, message }`); null for versions no engine made. */
  warnings: Generated<string | null>;
}

export interface ReadingRoomTerminalsTable {
  id: Generated<number>;
  name: string;
  token_hash: string;
  created_by: number | null;
  created_at: string;
  last_seen_at: string | null;
  revoked_at: string | null;
}

export interface FootprintsTable {
  id: Generated<number>;
  user_id: number;
  book_id: number;
  volume_id: number | null;
  /** The page the reader last showed (the reader reports page turns). */
  page_id: Generated<number | null>;
  created_at: string;
}

export interface CollectionsTable {
  id: Generated<number>;
  user_id: number;
  book_id: number;
  created_at: string;
}

export interface DownloadsTable {
  id: Generated<number>;
  user_id: number;
  book_id: number;
  volume_id: number;
  page_id: number | null;
  kind: 'image' | 'text' | 'pdf';
  created_at: string;
}

export interface CommentsTable {
  id: Generated<number>;
  user_id: number;
  book_id: number;
  text: string;
  hidden_at: string | null;
  hidden_by: number | null;
  created_at: string;
}

export interface NotesTable {
  id: Generated<number>;
  user_id: number;
  book_id: number;
  page_id: number;
  x: number;
  y: number;
  w: number;
  h: number;
  text: string;
  created_at: string;
  updated_at: string;
}

export interface ReservationDurationsTable {
  code: string;
  label: string;
  days: number;
  sort: number;
}

export interface ReservationsTable {
  id: Generated<number>;
  user_id: number;
  book_id: number;
  call_number: string;
  title: string;
  duration_code: string;
  reason: string;
  status: number;
  refuse_reason: string | null;
  reviewer_id: number | null;
  created_at: string;
  updated_at: string;
  expires_at: string | null;
}

export interface PrintPricesTable {
  paper_size: string;
  label: string;
  price_fen: number;
  sort: number;
}

export interface PrintOrdersTable {
  id: Generated<number>;
  order_num: string;
  user_id: number;
  extract: number;
  payment: number;
  is_invoice: number;
  invoice_title: string | null;
  consignee: string | null;
  consignee_phone: string | null;
  delivery_address: string | null;
  total_fen: number;
  pay_status: number;
  paid_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface PrintItemsTable {
  id: Generated<number>;
  user_id: number;
  book_id: number;
  volume_id: number;
  page_id: number;
  directory_name: string | null;
  paper_size: string;
  amount_fen: number;
  order_id: number | null;
  pay_status: number;
  print_status: number;
  express_number: string | null;
  created_at: string;
}

export interface PaymentsTable {
  id: Generated<number>;
  order_id: number;
  provider: string;
  trade_no: string;
  amount_fen: number;
  status: string;
  created_at: string;
  paid_at: string | null;
}

export interface PaymentNoticesTable {
  notice_id: string;
  trade_no: string;
  body: string;
  received_at: string;
}

export interface PrintLogTable {
  id: Generated<number>;
  order_id: number | null;
  action: string;
  item_ids: string;
  detail: string | null;
  actor_id: number | null;
  created_at: string;
}

export interface NotificationsTable {
  id: Generated<number>;
  audience: string;
  text: string;
  link: string | null;
  created_at: string;
}

export interface AuditLogTable {
  id: Generated<number>;
  actor_id: number | null;
  action: string;
  target: string;
  before: string | null;
  after: string | null;
  created_at: string;
}

/** A day's count of one usage metric (day in the library's time zone). */
export interface UsageDailyTable {
  day: string;
  metric: string;
  count: number;
}

/** A reader seen on a day (opened a book or read a page). */
export interface UsageReadersTable {
  day: string;
  user_id: number;
}

/** Refunds of paid print orders (migration 0025; docs/payments.md). */
export interface RefundsTable {
  id: Generated<number>;
  order_id: number;
  /** The trade's provider (alipay, wechat, sandbox), or 'cash' for money handed back at the desk. */
  provider: string;
  refund_no: string;
  trade_no: string | null;
  amount_fen: number;
  reason: string;
  /** 'pending', 'success' or 'failed'. */
  status: string;
  detail: string | null;
  actor_id: number | null;
  created_at: string;
  updated_at: string;
}

/** Readers' corrections of page text (migration 0027). */
export interface TextCorrectionsTable {
  id: Generated<number>;
  page_id: number;
  user_id: number;
  /** Body column (ocr_res.content index) and first character in it. */
  line: number;
  start: number;
  original: string;
  /** null: the characters are only flagged as wrong. */
  proposed: string | null;
  note: string | null;
  /** The characters' bounding box on the image, as JSON. */
  box_json: string | null;
  /** 'pending', 'accepted' or 'refused'. */
  status: string;
  reviewer_id: number | null;
  refuse_reason: string | null;
  /** The OCR version an accepted correction became. */
  version: number | null;
  created_at: string;
  decided_at: string | null;
}

/** Personal API tokens of the public read API (migration 0024): only the secret's SHA-256 is kept. */
export interface ApiTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** The secret's first characters, shown in the list to tell tokens apart. */
  token_prefix: string;
  token_hash: string;
  created_at: string;
  last_used_at: string | null;
}

export interface Database {
  classifications: ClassificationsTable;
  books: BooksTable;
  volumes: VolumesTable;
  pages: PagesTable;
  directories: DirectoriesTable;
  book_privileges: BookPrivilegesTable;
  footprints: FootprintsTable;
  collections: CollectionsTable;
  downloads: DownloadsTable;
  comments: CommentsTable;
  notes: NotesTable;
  reservation_durations: ReservationDurationsTable;
  reservations: ReservationsTable;
  print_prices: PrintPricesTable;
  print_orders: PrintOrdersTable;
  print_items: PrintItemsTable;
  payments: PaymentsTable;
  payment_notices: PaymentNoticesTable;
  print_log: PrintLogTable;
  notifications: NotificationsTable;
  audit_log: AuditLogTable;
  usage_daily: UsageDailyTable;
  usage_readers: UsageReadersTable;
  page_texts: PageTextsTable;
  ocr_versions: OcrVersionsTable;
  reading_room_terminals: ReadingRoomTerminalsTable;
  users: UsersTable;
  user_roles: UserRolesTable;
  sessions: SessionsTable;
  captchas: CaptchasTable;
  sms_codes: SmsCodesTable;
  sms_outbox: SmsOutboxTable;
  sso_nonces: SsoNoncesTable;
  login_failures: LoginFailuresTable;
  settings: SettingsTable;
  jobs: JobsTable;
  rate_limits: RateLimitsTable;
  upload_slots: UploadSlotsTable;
  oai_records: OaiRecordsTable;
  api_tokens: ApiTokensTable;
  refunds: RefundsTable;
  text_corrections: TextCorrectionsTable;
}

/** A row of a table as a query reads it: repositories name columns of it (`Pick<Row<'comments'>, 'id'>`) rather than copy their types. */
export type Row<T extends keyof Database> = Selectable<Database[T]>;
export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type JobRow = Selectable<JobsTable>;
export type BookRow = Selectable<BooksTable>;
export type VolumeRow = Selectable<VolumesTable>;
export type PageRow = Selectable<PagesTable>;
/** A page as serving its image needs it: every column but the OCR JSON. */
export type ImagePage = Omit<PageRow, 'ocr_json'>;
export const IMAGE_PAGE_COLUMNS = [
  'id',
  'volume_id',
  'book_id',
  'seq',
  'name',
  'width',
  'height',
  'master_key',
  'pyramid_key',
  'status',
  'created_at',
  'file_bytes',
] as const satisfies ReadonlyArray<keyof ImagePage>;
export type OcrVersionRow = Selectable<OcrVersionsTable>;
export type DirectoryRow = Selectable<DirectoriesTable>;
export type ClassificationRow = Selectable<ClassificationsTable>;
