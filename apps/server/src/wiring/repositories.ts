import type { Db, Dialect } from '../db/database.ts';
import { CaptchaRepository } from '../features/accounts/captcha.repository.ts';
import { RateLimitRepository } from '../features/accounts/rate-limit.repository.ts';
import { SessionRepository } from '../features/accounts/session.repository.ts';
import { SmsRepository } from '../features/accounts/sms.repository.ts';
import { SsoNonceRepository } from '../features/accounts/sso-nonce.repository.ts';
import { UserRepository } from '../features/accounts/user.repository.ts';
import { CatalogRepository } from '../features/catalog/catalog.repository.ts';
import { ClassificationRepository } from '../features/catalog/classification.repository.ts';
import { AuditRepository } from '../features/console/audit.repository.ts';
import { TerminalRepository } from '../features/console/terminal.repository.ts';
import { UsageRepository } from '../features/console/usage.repository.ts';
import { MarcRepository } from '../features/import/marc.repository.ts';
import { OaiRepository } from '../features/oai/oai.repository.ts';
import { CorrectionRepository } from '../features/ocr/correction.repository.ts';
import { OcrVersionRepository } from '../features/ocr/ocr-version.repository.ts';
import { OwnBookRepository } from '../features/own-books/own-book.repository.ts';
import { UploadSlotRepository } from '../features/own-books/upload-slot.repository.ts';
import { CollectionRepository } from '../features/personal/collection.repository.ts';
import { CommentRepository } from '../features/personal/comment.repository.ts';
import { DownloadRepository } from '../features/personal/download.repository.ts';
import { FootprintRepository } from '../features/personal/footprint.repository.ts';
import { NoteRepository } from '../features/personal/note.repository.ts';
import { PrivilegeRepository } from '../features/personal/privilege.repository.ts';
import { ReservationRepository } from '../features/personal/reservation.repository.ts';
import { PaymentRepository } from '../features/print/payment.repository.ts';
import { printRepositories } from '../features/print/print.repository.ts';
import { ApiTokenRepository } from '../features/public-api/api-token.repository.ts';
import { SearchRepository } from '../features/search/search.repository.ts';
import { SettingsRepository } from '../features/site/settings.repository.ts';
import { JobRepository } from '../jobs/job.repository.ts';

/**
 * Every repository of the application over one database: the only place they are made (services get
 * them from here through context.ts; routes never see them).
 */
export function createRepositories(db: Db, dialect: Dialect) {
  return {
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
    usage: new UsageRepository(db),
    ocrVersions: new OcrVersionRepository(db),
    corrections: new CorrectionRepository(db),
    notes: new NoteRepository(db),
    collections: new CollectionRepository(db),
    comments: new CommentRepository(db),
    downloads: new DownloadRepository(db),
    footprints: new FootprintRepository(db),
    privileges: new PrivilegeRepository(db),
    reservations: new ReservationRepository(db),
    print: printRepositories(db),
    payments: new PaymentRepository(db),
    ownBooks: new OwnBookRepository(db),
    oai: new OaiRepository(db),
    search: new SearchRepository(db),
    marc: new MarcRepository(db),
    apiTokens: new ApiTokenRepository(db),
  };
}

/** The repositories of a running application (AppContext.repos: for jobs, the CLI, the demo and tests). */
export type Repositories = ReturnType<typeof createRepositories>;
