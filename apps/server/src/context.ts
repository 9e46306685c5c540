import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/database.ts';
import { migrateToLatest } from './db/migrator.ts';
import { IiifAuthService } from './features/iiif/iiif-auth.service.ts';
import { UserRepository } from './features/accounts/user.repository.ts';
import { SessionRepository } from './features/accounts/session.repository.ts';
import { CaptchaRepository } from './features/accounts/captcha.repository.ts';
import { SmsRepository } from './features/accounts/sms.repository.ts';
import { SettingsRepository } from './features/site/settings.repository.ts';
import { SsoNonceRepository } from './features/accounts/sso-nonce.repository.ts';
import { JobRepository } from './jobs/job.repository.ts';
import { CatalogRepository } from './features/catalog/catalog.repository.ts';
import { ClassificationRepository } from './features/catalog/classification.repository.ts';
import { AuditRepository } from './features/console/audit.repository.ts';
import { TerminalRepository } from './features/console/terminal.repository.ts';
import { UsageRepository } from './features/console/usage.repository.ts';
import { ReservationRepository } from './features/personal/reservation.repository.ts';
import { CollectionRepository } from './features/personal/collection.repository.ts';
import { CommentRepository } from './features/personal/comment.repository.ts';
import { DownloadRepository } from './features/personal/download.repository.ts';
import { FootprintRepository } from './features/personal/footprint.repository.ts';
import { PrivilegeRepository } from './features/personal/privilege.repository.ts';
import { OwnBookRepository } from './features/own-books/own-book.repository.ts';
import { OcrVersionRepository } from './features/ocr/ocr-version.repository.ts';
import { ClassificationService } from './features/console/classification.service.ts';
import { OaiRepository } from './features/oai/oai.repository.ts';
import { OaiService } from './features/oai/oai.service.ts';
import { transactor } from './db/query.ts';
import { NoteRepository } from './features/personal/note.repository.ts';
import { printRepositories, type PrintRepositories } from './features/print/print.repository.ts';
import { CatalogService } from './features/catalog/catalog.service.ts';
import { IiifImageService } from './iiif/image.service.ts';
import { IngestService } from './features/import/ingest.service.ts';
import { FullTextService } from './features/search/full-text.service.ts';
import { SearchRepository } from './features/search/search.repository.ts';
import { Metrics } from './features/metrics/metrics.ts';
import { RateLimitRepository } from './features/accounts/rate-limit.repository.ts';
import { OcrService } from './features/ocr/ocr.service.ts';
import { CorrectionService } from './features/ocr/correction.service.ts';
import { CorrectionRepository } from './features/ocr/correction.repository.ts';
import type { OcrEngine } from './ocr/engine.ts';
import { ThreadedOcrEngine } from './ocr/engine-thread.ts';
import { TerminalService } from './features/console/terminal.service.ts';
import { PersonalService } from './features/personal/personal.service.ts';
import { ReservationService } from './features/personal/reservation.service.ts';
import { UsageService } from './features/console/usage.service.ts';
import { ReadingRoomAddresses } from './features/console/reading-room-addresses.service.ts';
import { CatalogAdminService } from './features/console/catalog-admin.service.ts';
import { UserAdminService } from './features/console/user-admin.service.ts';
import { DownloadService } from './features/personal/download.service.ts';
import { PrintCartService } from './features/print/cart.service.ts';
import { CheckoutService } from './features/print/checkout.service.ts';
import { PrintDeskService } from './features/print/desk.service.ts';
import { WebhookNotifier } from './features/print/notifier.ts';
import { PaymentRepository } from './features/print/payment.repository.ts';
import { PrintPdf } from './features/print/print-pdf.ts';
import { PrintRules } from './features/print/print-rules.ts';
import { RefundService } from './features/print/refund.service.ts';
import { OwnBookService } from './features/own-books/own-book.service.ts';
import { OwnAccess } from './features/own-books/own-access.ts';
import { OwnPageService } from './features/own-books/own-page.service.ts';
import { OwnReviewService } from './features/own-books/own-review.service.ts';
import { AdminService } from './features/console/admin.service.ts';
import { createPaymentProvider } from './features/print/payment-providers.ts';
import type { TextIndex } from './search/text-index.ts';
import { SqliteTextIndex } from './search/text-index.sqlite.ts';
import { PostgresTextIndex } from './search/text-index.postgres.ts';
import { CaptchaService } from './features/accounts/captcha.service.ts';
import { SmsService, type SmsProvider } from './features/accounts/sms.service.ts';
import { createSmsProvider } from './features/accounts/sms-providers.ts';
import { SessionService } from './features/accounts/session.service.ts';
import { SettingsService } from './features/site/settings.service.ts';
import { AuthService } from './features/accounts/auth.service.ts';
import { ProfileService } from './features/profile/profile.service.ts';
import { UploadGate } from './features/own-books/upload-gate.ts';
import { UploadSlotRepository } from './features/own-books/upload-slot.repository.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { resolveSecret } from './lib/session-secret.ts';
import type { FileStorage } from './storage/storage.ts';
import { openStorage } from './storage/open-storage.ts';
import { JobQueue } from './jobs/queue.ts';
import { JobWorker } from './jobs/worker.ts';
import { createJobHandlers } from './jobs/handlers.ts';
import type { JobDataMap } from './jobs/registry.ts';

/** Everything the HTTP server, the worker and the CLI share: one composition root. */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  storage: FileStorage;
  repos: {
    users: UserRepository;
    sessions: SessionRepository;
    captchas: CaptchaRepository;
    sms: SmsRepository;
    settings: SettingsRepository;
    ssoNonces: SsoNonceRepository;
    jobs: JobRepository;
    rateLimits: RateLimitRepository;
    uploadSlots: UploadSlotRepository;
    catalog: CatalogRepository;
    classifications: ClassificationRepository;
    audit: AuditRepository;
    terminals: TerminalRepository;
    ocrVersions: OcrVersionRepository;
    notes: NoteRepository;
    print: PrintRepositories;
  };
  services: {
    captcha: CaptchaService;
    sms: SmsService;
    sessions: SessionService;
    settings: SettingsService;
    auth: AuthService;
    profile: ProfileService;
    catalog: CatalogService;
    ingest: IngestService;
    fullText: FullTextService;
    ocr: OcrService;
    corrections: CorrectionService;
    terminals: TerminalService;
    personal: PersonalService;
    reservations: ReservationService;
    usage: UsageService;
    readingRoom: ReadingRoomAddresses;
    catalogAdmin: CatalogAdminService;
    /** The console's changes to user accounts (roles, category, disabling, password). */
    userAdmin: UserAdminService;
    downloads: DownloadService;
    printCart: PrintCartService;
    checkout: CheckoutService;
    printDesk: PrintDeskService;
    refunds: RefundService;
    ownBooks: OwnBookService;
    ownPages: OwnPageService;
    ownReview: OwnReviewService;
    admin: AdminService;
    classifications: ClassificationService;
    /** OAI-PMH over the public catalogue (/oai). */
    oai: OaiService;
    /** Each user's uploads in progress (issue 13 item 5). */
    uploads: UploadGate;
    /** IIIF Authorization: signed viewer tokens and access cookies bound to login sessions (issue 18). */
    iiifAuth: IiifAuthService;
  };
  textIndex: TextIndex;
  iiifImages: IiifImageService;
  queue: JobQueue;
  /** Prometheus metrics of this process (GET /metrics). */
  metrics: Metrics;
  createWorker(log: FastifyBaseLogger): JobWorker<JobDataMap>;
  /** The OCR engine (loaded on first use by a worker; tests may replace it). */
  createOcrEngine(): Promise<OcrEngine>;
  close(): Promise<void>;
}

export interface ContextOverrides {
  clock?: Clock;
  smsProvider?: SmsProvider;
  database?: DatabaseHandle;
  ocrEngine?: () => Promise<OcrEngine>;
}

/** Opens the database, runs migrations and wires repositories and services. */
export async function createContext(config: Config, overrides: ContextOverrides = {}): Promise<AppContext> {
  const database = overrides.database ?? openDatabase(config.database);
  await migrateToLatest(database.db, database.dialect);
  const { db, dialect } = database;
  const clock = overrides.clock ?? systemClock;
  const secret = resolveSecret(config);
  const storage = openStorage(config);
  const transact = transactor(db);
  const repos = {
    users: new UserRepository(db),
    sessions: new SessionRepository(db),
    captchas: new CaptchaRepository(db),
    sms: new SmsRepository(db),
    settings: new SettingsRepository(db),
    ssoNonces: new SsoNonceRepository(db),
    jobs: new JobRepository(db, dialect),
    rateLimits: new RateLimitRepository(db),
    uploadSlots: new UploadSlotRepository(db),
    catalog: new CatalogRepository(db, dialect),
    classifications: new ClassificationRepository(db),
    audit: new AuditRepository(db),
    terminals: new TerminalRepository(db),
    ocrVersions: new OcrVersionRepository(db),
    notes: new NoteRepository(db),
    print: printRepositories(db),
  };
  const captcha = new CaptchaService(repos.captchas, secret, clock);
  const textIndex: TextIndex = dialect === 'sqlite' ? new SqliteTextIndex(db) : new PostgresTextIndex(db);
  const fullText = new FullTextService(repos.catalog, textIndex, transact, new SearchRepository(db));
  // The audit log: services that make administrative changes write their records through it.
  const admin = new AdminService(repos.audit, repos.jobs, repos.users, clock, transact);
  const catalog = new CatalogService(repos.catalog, repos.classifications, clock, admin, transact, fullText);
  const sessions = new SessionService(repos.sessions, repos.users, config.sessionTtlMs, clock);
  const settings = new SettingsService(repos.settings, config, admin, transact);
  const sms = new SmsService(
    repos.sms,
    overrides.smsProvider ?? createSmsProvider(config.sms, repos.sms),
    secret,
    clock,
    { settings: () => settings.get(), timeoutMs: config.sms.timeoutMs },
  );
  const auth = new AuthService(
    transact,
    repos.users,
    repos.ssoNonces,
    sessions,
    captcha,
    sms,
    settings,
    clock,
    config.ssoSecret,
  );
  const profile = new ProfileService(repos.users, sms, storage);
  const queue = new JobQueue(repos.jobs);
  const personal = new PersonalService(
    {
      catalog: repos.catalog,
      collections: new CollectionRepository(db),
      downloads: new DownloadRepository(db),
      comments: new CommentRepository(db),
      notes: repos.notes,
      footprints: new FootprintRepository(db),
      privileges: new PrivilegeRepository(db),
    },
    catalog,
    clock,
    admin,
    transact,
  );
  const ingest = new IngestService(
    transact,
    repos.catalog,
    queue,
    storage,
    config.dataDir,
    fullText,
    admin,
    config.ocrOnIngest,
    config.uploadMaxPixels,
  );
  const pdf = { perProcess: config.downloadPdfConcurrency };
  const downloads = new DownloadService(storage, repos.catalog, catalog, personal, settings, clock, pdf);
  const payments = new PaymentRepository(db);
  const printRules = new PrintRules(repos.print, payments, repos.catalog, catalog, clock);
  const paymentProvider = createPaymentProvider(config, secret);
  const refunds = new RefundService(repos.print, printRules, paymentProvider, transact, clock);
  const printServices = {
    printCart: new PrintCartService(repos.print, repos.catalog, catalog, printRules, admin, transact, clock),
    refunds,
    checkout: new CheckoutService(
      repos.print,
      payments,
      printRules,
      settings,
      paymentProvider,
      refunds,
      config.printNotifyWebhookUrl
        ? [new WebhookNotifier(config.printNotifyWebhookUrl, (message) => console.warn(message))]
        : [],
      transact,
      clock,
    ),
    printDesk: new PrintDeskService(
      repos.print,
      payments,
      printRules,
      new PrintPdf(repos.print, repos.catalog, downloads, settings, storage),
      transact,
      clock,
    ),
  };
  const ocr = new OcrService(repos.ocrVersions, transact, repos.catalog, catalog, fullText);
  const ownBooks = new OwnBookRepository(db);
  const ownAccess = new OwnAccess(repos.catalog, repos.users);
  const metrics = new Metrics(repos.jobs, database);
  const context: AppContext = {
    config,
    database,
    clock,
    storage,
    repos,
    services: {
      captcha,
      sms,
      sessions,
      settings,
      auth,
      profile,
      catalog,
      ingest,
      fullText,
      ocr,
      corrections: new CorrectionService(new CorrectionRepository(db), {
        ocr,
        catalog,
        auditor: admin,
        transact,
        clock,
      }),
      iiifAuth: new IiifAuthService(
        createHmac('sha256', secret).update('iiif-auth').digest('hex'),
        repos.sessions,
        repos.users,
        clock,
        config.iiifViewerOrigins,
      ),
      terminals: new TerminalService(repos.terminals, clock, admin, transact),
      readingRoom: new ReadingRoomAddresses(repos.settings, config.readingRoomCidrs, admin, transact),
      personal,
      reservations: new ReservationService(
        new ReservationRepository(db),
        admin,
        transact,
        clock,
        async () => (await settings.get()).timeZone,
      ),
      usage: new UsageService(new UsageRepository(db), clock, async () => (await settings.get()).timeZone),
      catalogAdmin: new CatalogAdminService(
        repos.catalog,
        repos.classifications,
        repos.users,
        fullText,
        ingest,
        admin,
        transact,
      ),
      downloads,
      admin,
      userAdmin: new UserAdminService(
        repos.users,
        repos.sessions,
        admin,
        transact,
        clock,
        async () => (await settings.get()).timeZone,
      ),
      classifications: new ClassificationService(repos.classifications, admin, transact),
      oai: new OaiService(new OaiRepository(db), settings, clock, config.oai),
      ownBooks: new OwnBookService(
        ownBooks,
        repos.catalog,
        ownAccess,
        admin,
        transact,
        ingest,
        fullText,
        clock,
      ),
      ownPages: new OwnPageService(
        ownBooks,
        repos.catalog,
        ownAccess,
        repos.jobs,
        admin,
        transact,
        ingest,
        fullText,
        settings,
      ),
      ownReview: new OwnReviewService(ownBooks, repos.catalog, ownAccess, admin, transact, fullText, clock),
      uploads: new UploadGate(repos.uploadSlots, clock),
      ...printServices,
    },
    textIndex,
    iiifImages: new IiifImageService(config.dataDir, {
      maxCacheBytes: config.iiifCacheMaxBytes,
      renderConcurrency: config.iiifRenderConcurrency,
      renderQueue: config.iiifRenderQueue,
      storage,
    }),
    queue,
    metrics,
    createWorker: (log) =>
      new JobWorker<JobDataMap>(repos.jobs, createJobHandlers(context), log, {
        observer: metrics,
        leaseMs: config.jobLeaseMs,
      }),
    // Recognition runs in its own thread, never on the thread that answers requests (issue 13 item 6).
    createOcrEngine: overrides.ocrEngine ?? (() => ThreadedOcrEngine.create()),
    close: async () => {
      // Counted page views and searches not yet written (UsageService keeps them a few seconds).
      await context.services.usage.close().catch(() => undefined);
      storage.close?.();
      await database.destroy();
    },
  };
  return context;
}
