import { escapeXml as x } from '../../lib/xml.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Config } from '../../config.ts';
import type { ClassificationRow } from '../../db/schema.ts';
import { collectionUrl, manifestUrl } from '../catalog/catalog.service.ts';
import type { SettingsService } from '../site/settings.service.ts';
import { METADATA_FORMATS, mods, oaiDc, type MetadataPrefix, type RecordContext } from './oai-formats.ts';
import {
  encodeToken,
  OaiError,
  parseOaiRequest,
  SET_SPEC,
  type ListQuery,
  type OaiRequest,
} from './oai-request.ts';
import type { OaiRecordRow, OaiRepository } from './oai.repository.ts';

/** Where the response's links point: the site's public origin and the repository identifier. */
export interface OaiSite {
  origin: string;
  /** The host name of the origin (no port), the default repository identifier. */
  host: string;
}

const OAI_HEAD =
  '<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"' +
  ' xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/ http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd">';
/** The oai-identifier scheme's repositoryIdentifier syntax (a domain name). */
const DOMAIN = /^[a-zA-Z][a-zA-Z0-9-]*(\.[a-zA-Z][a-zA-Z0-9-]*)+$/;

const isPrefix = (prefix: string): prefix is MetadataPrefix =>
  METADATA_FORMATS.some((f) => f.prefix === prefix);
/** Classification codes (A-Z, 0-9, _ in dot-separated levels) as setSpecs: levels separated by colons. */
const setSpecOf = (code: string | null): string | undefined => {
  const spec = code?.replaceAll('.', ':');
  return spec && SET_SPEC.test(spec) ? spec : undefined;
};

/**
 * OAI-PMH 2.0 over the public catalogue (visible, published books), for union catalogues and aggregators.
 * Records are books; sets are the classification tree; deleted records are persistent (migration 0022).
 */
export class OaiService {
  constructor(
    private readonly repo: OaiRepository,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    private readonly config: Config['oai'],
  ) {}

  /** The whole response document for a request's arguments (in the order sent). */
  async respond(pairs: ReadonlyArray<readonly [string, string]>, site: OaiSite): Promise<string> {
    const baseUrl = `${site.origin}/oai`;
    const head = `<?xml version="1.0" encoding="UTF-8"?>\n${OAI_HEAD}<responseDate>${this.now()}</responseDate>`;
    let request: OaiRequest;
    try {
      request = parseOaiRequest(pairs);
    } catch (error) {
      // After badVerb or badArgument the request element carries no attributes (§3.2).
      if (!(error instanceof OaiError)) throw error;
      return `${head}<request>${x(baseUrl)}</request>${errorXml(error)}</OAI-PMH>`;
    }
    const attributes = pairs.map(([key, value]) => ` ${key}="${x(value)}"`).join('');
    const opening = `${head}<request${attributes}>${x(baseUrl)}</request>`;
    try {
      const body = await this.answer(request, site, baseUrl);
      return `${opening}<${request.verb}>${body}</${request.verb}></OAI-PMH>`;
    } catch (error) {
      if (!(error instanceof OaiError)) throw error;
      return `${opening}${errorXml(error)}</OAI-PMH>`;
    }
  }

  private now(): string {
    return this.clock
      .now()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z');
  }

  private repositoryId(site: OaiSite): string {
    return this.config.repositoryId ?? site.host;
  }

  private identifier(site: OaiSite, bookId: number): string {
    return `oai:${this.repositoryId(site)}:${bookId}`;
  }

  /** The book id of one of our identifiers, or idDoesNotExist. */
  private bookIdOf(site: OaiSite, identifier: string): number {
    const prefix = `oai:${this.repositoryId(site)}:`;
    const rest = identifier.startsWith(prefix) ? identifier.slice(prefix.length) : '';
    if (!/^[1-9]\d{0,14}$/.test(rest)) throw new OaiError('idDoesNotExist', `没有这个标识符：${identifier}`);
    return Number(rest);
  }

  private async answer(request: OaiRequest, site: OaiSite, baseUrl: string): Promise<string> {
    switch (request.verb) {
      case 'Identify':
        return this.identify(site, baseUrl);
      case 'ListMetadataFormats': {
        if (request.identifier !== undefined) {
          const record = await this.repo.find(this.bookIdOf(site, request.identifier));
          if (!record) throw new OaiError('idDoesNotExist', `没有这个标识符：${request.identifier}`);
        }
        return METADATA_FORMATS.map(
          (f) =>
            `<metadataFormat><metadataPrefix>${f.prefix}</metadataPrefix><schema>${f.schema}</schema>` +
            `<metadataNamespace>${f.namespace}</metadataNamespace></metadataFormat>`,
        ).join('');
      }
      case 'ListSets':
        return this.listSets();
      case 'GetRecord': {
        if (!isPrefix(request.metadataPrefix))
          throw new OaiError('cannotDisseminateFormat', `不支持的元数据格式：${request.metadataPrefix}`);
        const record = await this.repo.find(this.bookIdOf(site, request.identifier));
        if (!record) throw new OaiError('idDoesNotExist', `没有这个标识符：${request.identifier}`);
        const [xml] = await this.records([record], request.metadataPrefix, site);
        return xml!;
      }
      case 'ListIdentifiers':
      case 'ListRecords':
        return this.list(request.list, request.verb === 'ListRecords', request.resumed, site);
    }
  }

  private async identify(site: OaiSite, baseUrl: string): Promise<string> {
    const { siteName } = await this.settings.get();
    const repositoryId = this.repositoryId(site);
    const earliest = (await this.repo.earliestDatestamp()) ?? this.now();
    const description = DOMAIN.test(repositoryId)
      ? '<description><oai-identifier xmlns="http://www.openarchives.org/OAI/2.0/oai-identifier"' +
        ' xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/oai-identifier http://www.openarchives.org/OAI/2.0/oai-identifier.xsd">' +
        `<scheme>oai</scheme><repositoryIdentifier>${x(repositoryId)}</repositoryIdentifier><delimiter>:</delimiter>` +
        `<sampleIdentifier>${x(this.identifier(site, 1))}</sampleIdentifier></oai-identifier></description>`
      : '';
    return (
      `<repositoryName>${x(siteName)}</repositoryName><baseURL>${x(baseUrl)}</baseURL>` +
      `<protocolVersion>2.0</protocolVersion>` +
      `<adminEmail>${x(this.config.adminEmail ?? `postmaster@${repositoryId}`)}</adminEmail>` +
      `<earliestDatestamp>${earliest}</earliestDatestamp><deletedRecord>persistent</deletedRecord>` +
      `<granularity>YYYY-MM-DDThh:mm:ssZ</granularity>${description}`
    );
  }

  private async listSets(): Promise<string> {
    const classes = await this.repo.classifications();
    const byId = new Map(classes.map((c) => [c.id, c]));
    const sets = classes
      .map((c) => ({
        spec: setSpecOf(c.code),
        name: pathOf(c, byId)
          .map((p) => p.name)
          .join(' > '),
      }))
      .filter((s): s is { spec: string; name: string } => s.spec !== undefined);
    if (sets.length === 0) throw new OaiError('noSetHierarchy', '本库没有集合（分类）');
    return sets
      .map((s) => `<set><setSpec>${x(s.spec)}</setSpec><setName>${x(s.name)}</setName></set>`)
      .join('');
  }

  private async list(
    query: ListQuery,
    withMetadata: boolean,
    resumed: boolean,
    site: OaiSite,
  ): Promise<string> {
    if (!isPrefix(query.metadataPrefix)) {
      if (resumed) throw new OaiError('badResumptionToken', '续传令牌无效或已损坏');
      throw new OaiError('cannotDisseminateFormat', `不支持的元数据格式：${query.metadataPrefix}`);
    }
    if (query.set !== undefined && (await this.repo.classifications()).length === 0)
      throw new OaiError('noSetHierarchy', '本库没有集合（分类）');
    const selection = {
      from: query.from,
      until: query.until,
      classCode: query.set?.replaceAll(':', '.'),
    };
    const size = this.config.pageSize;
    const rows = await this.repo.list(selection, query.after, size + 1);
    if (rows.length === 0) throw new OaiError('noRecordsMatch', '没有符合条件的记录');
    const page = rows.slice(0, size);
    const items = withMetadata
      ? await this.records(page, query.metadataPrefix, site)
      : page.map((row) => headerXml(this.identifier(site, row.bookId), row));
    const more = rows.length > size;
    if (!more && !resumed) return items.join('');
    const total = await this.repo.count(selection);
    const next = more
      ? encodeToken({ ...query, after: page.at(-1)!.bookId, cursor: query.cursor + page.length })
      : '';
    return `${items.join('')}<resumptionToken completeListSize="${total}" cursor="${query.cursor}">${next}</resumptionToken>`;
  }

  /** `<record>`s: the header, and the metadata unless the record is deleted. */
  private async records(rows: OaiRecordRow[], prefix: MetadataPrefix, site: OaiSite): Promise<string[]> {
    const shown = rows.filter((row) => row.book);
    const volumes = await this.repo.volumesOf(shown.map((row) => row.bookId));
    const classes = shown.length ? await this.repo.classifications() : [];
    const byCode = new Map(classes.map((c) => [c.code, c]));
    const byId = new Map(classes.map((c) => [c.id, c]));
    const { siteName } = shown.length ? await this.settings.get() : { siteName: '' };
    return rows.map((row) => {
      const identifier = this.identifier(site, row.bookId);
      const header = headerXml(identifier, row);
      if (!row.book) return `<record>${header}</record>`;
      const cls = row.book.class_code ? byCode.get(row.book.class_code) : undefined;
      const context: RecordContext = {
        identifier,
        datestamp: row.datestamp,
        bookUrl: `${site.origin}/SearchPage/${row.bookId}`,
        collectionUrl: site.origin + collectionUrl(row.bookId),
        volumes: (volumes.get(row.bookId) ?? []).map((v) => ({
          name: v.name,
          manifestUrl: site.origin + manifestUrl(v.id),
        })),
        classPath: cls ? pathOf(cls, byId) : [],
        siteName,
      };
      const metadata = prefix === 'mods' ? mods(row.book, context) : oaiDc(row.book, context);
      return `<record>${header}<metadata>${metadata}</metadata></record>`;
    });
  }
}

function headerXml(identifier: string, row: OaiRecordRow): string {
  const spec = setSpecOf(row.classCode);
  return (
    `<header${row.deleted ? ' status="deleted"' : ''}><identifier>${x(identifier)}</identifier>` +
    `<datestamp>${row.datestamp}</datestamp>${spec ? `<setSpec>${x(spec)}</setSpec>` : ''}</header>`
  );
}

function errorXml(error: OaiError): string {
  return `<error code="${error.code}">${x(error.message)}</error>`;
}

/** A classification and its ancestors, top first. */
function pathOf(
  cls: ClassificationRow,
  byId: Map<number, ClassificationRow>,
): Array<{ code: string; name: string }> {
  const path: Array<{ code: string; name: string }> = [];
  for (
    let c: ClassificationRow | undefined = cls;
    c && path.length < 20;
    c = c.parent_id ? byId.get(c.parent_id) : undefined
  )
    path.unshift({ code: c.code, name: c.name });
  return path;
}
