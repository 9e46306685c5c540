import { CitationService } from '../features/catalog/citation.service.ts';
import { IngestService } from '../features/import/ingest.service.ts';
import { MarcService } from '../features/import/marc.service.ts';
import { IiifCatalog } from '../features/iiif/iiif-catalog.service.ts';
import { OaiService } from '../features/oai/oai.service.ts';
import { CorrectionService } from '../features/ocr/correction.service.ts';
import { OcrService } from '../features/ocr/ocr.service.ts';
import { DownloadService } from '../features/personal/download.service.ts';
import { PersonalService } from '../features/personal/personal.service.ts';
import { ReservationService } from '../features/personal/reservation.service.ts';
import { PublicApiService } from '../features/public-api/public-api.service.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { CoreServices } from './core.ts';
import type { WiringBase } from './deps.ts';

/** The library's books and what readers do with them: reading, personal lists, downloads, OCR, imports, exports. */
export function libraryServices(
  { config, repos, clock, storage, transact, catalogueWrites }: WiringBase,
  { admin, catalog, fullText, settings }: CoreServices,
  queue: JobQueue,
) {
  const personal = new PersonalService(
    {
      catalog: repos.catalog,
      collections: repos.collections,
      downloads: repos.downloads,
      comments: repos.comments,
      notes: repos.notes,
      footprints: repos.footprints,
      privileges: repos.privileges,
    },
    catalog,
    clock,
    admin,
    transact,
  );
  const ingest = new IngestService({
    transact,
    catalog: repos.catalog,
    queue,
    storage,
    dataDir: config.dataDir,
    fullText,
    auditor: admin,
    ocrOnIngest: config.ocrOnIngest,
    maxPixels: config.uploadMaxPixels,
  });
  const ocr = new OcrService(repos.ocrVersions, transact, repos.catalog, catalog, fullText);
  const pdf = { perProcess: config.downloadPdfConcurrency };
  return {
    personal,
    ingest,
    ocr,
    corrections: new CorrectionService(repos.corrections, { ocr, catalog, auditor: admin, transact, clock }),
    downloads: new DownloadService({
      storage,
      catalogRepo: repos.catalog,
      catalog,
      personal,
      settings,
      clock,
      pdfBuilds: pdf,
    }),
    reservations: new ReservationService(
      repos.reservations,
      admin,
      transact,
      clock,
      async () => (await settings.get()).timeZone,
    ),
    /** Citation exports and the citation tags of the web app's pages (issue 18). */
    citations: new CitationService(repos.catalog, catalog, settings, clock),
    /** What the IIIF answers read from the catalogue (the access rule is iiif-access.ts's). */
    iiifCatalog: new IiifCatalog(repos.catalog, catalog, catalogueWrites, clock),
    /** OAI-PMH over the public catalogue (/oai). */
    oai: new OaiService(repos.oai, settings, clock, config.oai),
    /** MARC 21 import and export (ISO 2709 and MARCXML). */
    marc: new MarcService(repos.marc, repos.catalog, repos.classifications, admin, transact),
    /** The public read API's answers (/api/v1). */
    publicApi: new PublicApiService(catalog, repos.catalog, fullText, repos.ocrVersions),
  };
}

export type LibraryServices = ReturnType<typeof libraryServices>;
