import {
  boundingBox,
  CORRECTION_LIMITS,
  correctionProblem,
  MSG,
  OcrPoints,
  type CorrectionStatus,
  type OcrJson,
  type Paged,
  ProposeCorrectionRequest,
  type QueuedCorrection,
  type TextCorrection,
} from '@guji/shared';
import type { z } from 'zod';
import type { Transact } from '../../db/query.ts';
import { nowIso, type DbOrTx } from '../../db/database.ts';
import { badRequest, conflict, forbidden, notFound, tooMany, unauthorized } from '../../errors.ts';
import { addSeconds, type Clock } from '../../lib/clock.ts';
import { pagedOf } from '../../lib/paged.ts';
import { isCatalogStaff } from '../catalog/access.ts';
import type { CatalogService } from '../catalog/catalog.service.ts';
import type { Viewer } from '../../lib/viewer.ts';
import type { Auditor } from '../../audit/auditor.ts';
import type { CorrectionRepository, CorrectionRow } from './correction.repository.ts';
import type { OcrService } from './ocr.service.ts';

type ProposeInput = z.output<typeof ProposeCorrectionRequest>;

const NOT_FOUND = () => notFound(MSG.notFound, 'NOT_FOUND');
const STAFF_ONLY = () => forbidden('只有编目人员可以审核纠错');

function parseBox(json: string | null): TextCorrection['box'] {
  if (!json) return null;
  try {
    const parsed = OcrPoints.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const toCorrection = (row: CorrectionRow): TextCorrection => ({
  id: row.id,
  imageId: row.page_id,
  line: row.line,
  start: row.start,
  original: row.original,
  proposed: row.proposed,
  note: row.note,
  status: row.status as CorrectionStatus,
  proposer: row.proposer,
  createdAt: row.created_at,
  reviewer: row.reviewer,
  decidedAt: row.decided_at,
  refuseReason: row.refuse_reason,
  version: row.version,
  box: parseBox(row.box_json),
});

const toQueued = (row: CorrectionRow): QueuedCorrection => ({
  ...toCorrection(row),
  place: {
    catalogId: row.book_id,
    title: row.title,
    fascicleId: row.volume_id,
    volumeName: row.volume_name,
    pageNumber: row.page_seq,
    pageName: row.page_name,
  },
});

/** The characters `start`… of body column `line`, as many as `length`; null where the page has fewer. */
function charactersAt(ocr: OcrJson, line: number, start: number, length: number) {
  const words = ocr.ocr_res.content[line]?.words.slice(start, start + length) ?? [];
  return words.length === length ? words : null;
}

/**
 * Readers mend the text (issue 32 part 5, as ctext.org's wiki lets them): a signed-in reader who may
 * read a page proposes new characters for some of one column's (or flags them as wrong, with a note);
 * catalogue staff accept or refuse each in a queue. An accepted proposal becomes the page's newest OCR
 * version credited to its author (the full-text index follows in the same transaction); a refusal's
 * reason is shown to the author only, and nobody but the author and the reviewers sees a proposal.
 * Each decision is audited with it; a reader may propose CORRECTION_LIMITS.perHour an hour.
 */
export class CorrectionService {
  constructor(
    private readonly corrections: CorrectionRepository,
    private readonly deps: {
      ocr: OcrService;
      catalog: CatalogService;
      auditor: Auditor;
      transact: Transact;
      clock: Clock;
    },
  ) {}

  async propose(imageId: number, request: ProposeInput, viewer: Viewer): Promise<TextCorrection> {
    const userId = viewer.userId;
    if (userId === null) throw unauthorized();
    // Whoever may read the page may propose (the access rule of the reader, restricted books included).
    const { ocr } = await this.deps.catalog.pageOcr(imageId, viewer);
    const length = [...request.original].length;
    const words = ocr ? charactersAt(ocr, request.line, request.start, length) : null;
    if (!words || words.map((w) => w.word).join('') !== request.original) {
      throw conflict('CORRECTION_ORIGINAL_CHANGED', MSG.correctionOriginalChanged);
    }
    const problem = correctionProblem(request.original, request.proposed);
    if (problem) throw badRequest('CORRECTION_INVALID', problem);
    if (request.proposed === '' && request.note === '') {
      throw badRequest('CORRECTION_INVALID', MSG.correctionEmpty);
    }
    const now = this.deps.clock.now();
    const since = nowIso(addSeconds(now, -3600));
    if ((await this.corrections.countSince(userId, since)) >= CORRECTION_LIMITS.perHour) {
      throw tooMany(MSG.correctionTooMany.replace('{n}', String(CORRECTION_LIMITS.perHour)), 3600);
    }
    const id = await this.corrections.create({
      pageId: imageId,
      userId,
      line: request.line,
      start: request.start,
      original: request.original,
      proposed: request.proposed === '' ? null : request.proposed,
      note: request.note === '' ? null : request.note,
      boxJson: JSON.stringify(boundingBox(words.map((w) => w.points))),
      createdAt: nowIso(now),
    });
    return toCorrection(await this.found(id));
  }

  /** The reader's own corrections of a page (what others proposed is never shown). */
  async mine(imageId: number, viewer: Viewer): Promise<TextCorrection[]> {
    if (viewer.userId === null) throw unauthorized();
    return (await this.corrections.ofReader(imageId, viewer.userId)).map(toCorrection);
  }

  async queue(
    query: { status: CorrectionStatus; imageId?: number; pageNum: number; pageSize: number },
    viewer: Viewer,
  ): Promise<Paged<QueuedCorrection>> {
    this.reviewer(viewer);
    const { rows, total } = await this.corrections.page(
      { status: query.status, pageId: query.imageId },
      (query.pageNum - 1) * query.pageSize,
      query.pageSize,
    );
    return pagedOf(query.pageNum, query.pageSize, total, rows.map(toQueued));
  }

  /**
   * Accepts a correction. A proposal replaces its characters (read by a person: confidence 1) in a new
   * OCR version credited to its author; a flag is marked as dealt with (the text is mended on the
   * proofreading page). Refused with 409 when the page's text there is no longer what the reader saw.
   */
  async accept(id: number, viewer: Viewer): Promise<TextCorrection> {
    const reviewerId = this.reviewer(viewer);
    const row = await this.pending(id);
    /** The decision and its audit record, in the transaction of the change (if any). */
    const record = async (tx: DbOrTx, version: number | null) => {
      const decision = {
        status: 'accepted' as const,
        reviewerId,
        decidedAt: nowIso(this.deps.clock.now()),
        version,
      };
      if (!(await this.corrections.decide(id, decision, tx))) throw this.alreadyDecided();
      await this.deps.auditor.record(
        reviewerId,
        'correction.accept',
        `correction:${id}`,
        { page: row.page_id, line: row.line, start: row.start, text: row.original },
        { status: 'accepted', text: row.proposed, version },
        tx,
      );
    };
    if (row.proposed === null) {
      await this.deps.transact((tx) => record(tx, null));
      return toCorrection(await this.found(id));
    }
    // The version the text is read at, before reading it: a save that lands after it is caught below.
    const readAt = await this.deps.ocr.latestVersion(row.page_id);
    const { ocr } = await this.deps.catalog.pageOcr(row.page_id, viewer);
    const words = ocr ? charactersAt(ocr, row.line, row.start, [...row.original].length) : null;
    if (!ocr || !words || words.map((w) => w.word).join('') !== row.original) throw this.stale();
    [...row.proposed].forEach((char, i) => {
      words[i]!.word = char;
      words[i]!.confidence = 1;
    });
    await this.deps.ocr.saveVersion(
      row.page_id,
      ocr,
      `correction:${id}`,
      row.user_id,
      async (tx, version) => {
        // Ours must follow the version read (a first save also keeps the text it replaces as version 1):
        // otherwise someone saved the page meanwhile, and their text is not overwritten.
        if (version !== (readAt === 0 ? 2 : readAt + 1)) throw this.stale();
        await record(tx, version);
      },
    );
    return toCorrection(await this.found(id));
  }

  async refuse(id: number, reason: string, viewer: Viewer): Promise<TextCorrection> {
    const reviewerId = this.reviewer(viewer);
    const row = await this.pending(id);
    await this.deps.transact(async (tx) => {
      const done = await this.corrections.decide(
        id,
        { status: 'refused', reviewerId, decidedAt: nowIso(this.deps.clock.now()), refuseReason: reason },
        tx,
      );
      if (!done) throw this.alreadyDecided();
      await this.deps.auditor.record(
        reviewerId,
        'correction.refuse',
        `correction:${id}`,
        { status: row.status },
        { status: 'refused', reason },
        tx,
      );
    });
    return toCorrection(await this.found(id));
  }

  private reviewer(viewer: Viewer): number {
    if (viewer.userId === null) throw unauthorized();
    if (!isCatalogStaff(viewer.roles)) throw STAFF_ONLY();
    return viewer.userId;
  }

  private stale() {
    return conflict('CORRECTION_STALE', MSG.correctionStale);
  }

  private alreadyDecided() {
    return conflict('CORRECTION_DECIDED', MSG.correctionDecided);
  }

  private async found(id: number): Promise<CorrectionRow> {
    const row = await this.corrections.find(id);
    if (!row) throw NOT_FOUND();
    return row;
  }

  private async pending(id: number): Promise<CorrectionRow> {
    const row = await this.found(id);
    if (row.status !== 'pending') throw this.alreadyDecided();
    return row;
  }
}
