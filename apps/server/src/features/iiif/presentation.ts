import { canvasPath } from '@guji/shared';
import type { BookRow, PageRow } from '../../db/schema.ts';
import { boundingBox, type DirectoryNode, type OcrJson } from '@guji/shared';
import { auth1Service, auth2ProbeService } from './iiif-auth.ts';
import { collectionUrl, iiifImageBase, manifestUrl, thumbnailUrl } from '../catalog/catalog.service.ts';

/**
 * IIIF Presentation API 3.0 documents (https://iiif.io/api/presentation/3.0/): a Manifest per
 * volume (right-to-left, paged, ranges from the directory tree), a Collection per book with several
 * volumes, and the top Collection of public books. `base` is the absolute origin, e.g. https://host.
 */
const CONTEXT = 'http://iiif.io/api/presentation/3/context.json';
/**
 * A stand-alone AnnotationPage is read as a W3C Web Annotation document too, which must name the
 * annotation context; the Presentation context comes last, as that API requires.
 */
const ANNOTATION_CONTEXT = ['http://www.w3.org/ns/anno.jsonld', CONTEXT];
const zh = (text: string) => ({ zh: [text] });

export interface ManifestInput {
  base: string;
  book: BookRow;
  volume: { id: number; name: string; introduction: string | null };
  volumeCount: number;
  pages: PageRow[];
  directory: DirectoryNode[];
  /** Whether the client may use the content search service, so the manifest offers it. */
  searchable: boolean;
  /** A book that is not public: its images name the IIIF Auth services (1.0 login, 2.0 probe). */
  restricted?: boolean;
}

export function buildManifest({
  base,
  book,
  volume,
  volumeCount,
  pages,
  directory,
  searchable,
  restricted = false,
}: ManifestInput) {
  const id = base + manifestUrl(volume.id);
  const canvasId = (pageId: number) => base + canvasUrl(volume.id, pageId);
  const metadata = [
    ['题名', book.title],
    ['著者', book.author],
    ['版本', book.coverage_dynasty],
    ['出版年代', book.publish_dynasty],
    ['索书号', book.call_number],
    ['卷册', volume.name],
  ]
    .filter((entry): entry is [string, string] => !!entry[1])
    .map(([label, value]) => ({ label: zh(label), value: zh(value) }));
  const seqToId = new Map(pages.map((p) => [p.seq, p.id]));
  return {
    '@context': CONTEXT,
    id,
    type: 'Manifest',
    label: zh(volumeCount > 1 ? `${book.title} ${volume.name}` : book.title),
    ...(volume.introduction ? { summary: zh(volume.introduction) } : {}),
    metadata,
    requiredStatement: { label: zh('提供者'), value: zh('古籍数字图书馆') },
    viewingDirection: 'right-to-left',
    behavior: ['paged'],
    ...(pages[0] ? { thumbnail: [thumbnail(base, pages[0].id)] } : {}),
    ...(volumeCount > 1 ? { partOf: [{ id: base + collectionUrl(book.id), type: 'Collection' }] } : {}),
    // IIIF Content Search 2.0 over the volume's recognised text, offered only where it answers (DESIGN.md §7).
    // Content Search 1.0 beside it: the version Mirador 4 and Universal Viewer speak (issue 31 item 4).
    ...(searchable ? { service: searchServices(base, volume.id) } : {}),
    homepage: [
      {
        id: `${base}/SearchPage/${book.id}`,
        type: 'Text',
        label: zh(book.title),
        format: 'text/html',
        language: ['zh'],
      },
    ],
    items: pages.map((page) => canvas(base, book, canvasId(page.id), page, restricted)),
    structures: ranges(
      directory,
      pages.length,
      (seq) => {
        const pageId = seqToId.get(seq);
        return pageId === undefined ? undefined : canvasId(pageId);
      },
      `${id.replace(/manifest\.json$/, '')}range`,
    ),
  };
}

/** One page's canvas: its image (with the Auth services of a restricted book) and its text's annotations. */
function canvas(base: string, book: BookRow, id: string, page: PageRow, restricted: boolean) {
  return {
    id,
    type: 'Canvas',
    label: zh(page.name),
    width: page.width,
    height: page.height,
    thumbnail: [thumbnail(base, page.id)],
    items: [
      {
        id: `${id}/page`,
        type: 'AnnotationPage',
        items: [
          {
            id: `${id}/page/image`,
            type: 'Annotation',
            motivation: 'painting',
            target: id,
            body: {
              id: `${base}${iiifImageBase(page.id)}/full/max/0/default.jpg`,
              type: 'Image',
              format: 'image/jpeg',
              width: page.width,
              height: page.height,
              service: [
                {
                  id: base + iiifImageBase(page.id),
                  type: 'ImageService3',
                  profile: 'level2',
                  ...(restricted ? { service: [auth1Service(base, book)] } : {}),
                },
                ...(restricted ? [auth2ProbeService(base, book, page.id)] : []),
              ],
            },
          },
        ],
      },
    ],
    // The recognised text, one `supplementing` annotation per column (referenced, fetched on demand).
    // A restricted book's text follows the images' Auth flow: the same probe (and through it the same
    // login and token) is declared on it, and text.json honours the token (issue 31 item 3).
    ...(page.ocr_json
      ? {
          annotations: [
            {
              id: `${base}${textAnnotationsUrl(page.id)}`,
              type: 'AnnotationPage',
              ...(restricted ? { service: [auth2ProbeService(base, book, page.id)] } : {}),
            },
          ],
        }
      : {}),
  };
}

export const searchServiceUrl = (volumeId: number) => `/iiif/search/volumes/${volumeId}`;
export const search1Url = (volumeId: number) => `/iiif/search/1/volumes/${volumeId}`;
export const autocomplete1Url = (volumeId: number) => `/iiif/search/1/volumes/${volumeId}/autocomplete`;

/** A volume's content search services: 2.0, and 1.0 with its autocomplete. */
function searchServices(base: string, volumeId: number) {
  return [
    { id: `${base}${searchServiceUrl(volumeId)}`, type: 'SearchService2' },
    {
      id: `${base}${search1Url(volumeId)}`,
      type: 'SearchService1',
      profile: 'http://iiif.io/api/search/1/search',
      service: [
        {
          id: `${base}${autocomplete1Url(volumeId)}`,
          type: 'AutoCompleteService1',
          profile: 'http://iiif.io/api/search/1/autocomplete',
        },
      ],
    },
  ];
}
export const textAnnotationsUrl = (pageId: number) => `/iiif/presentation/pages/${pageId}/text.json`;
/** A canvas's path (declared once in packages/shared, where the reader's citation uses it too). */
export const canvasUrl = canvasPath;

export const xywh = (b: { left: number; top: number; right: number; bottom: number }) =>
  `xywh=${b.left},${b.top},${b.right - b.left},${b.bottom - b.top}`;

/** A page's recognised text as a IIIF AnnotationPage: one `supplementing` annotation per column. */
export function buildTextAnnotations(base: string, page: PageRow, ocr: OcrJson) {
  const canvas = base + canvasUrl(page.volume_id, page.id);
  const id = base + textAnnotationsUrl(page.id);
  return {
    '@context': ANNOTATION_CONTEXT,
    id,
    type: 'AnnotationPage',
    items: ocr.ocr_res.content
      .filter((line) => line.words.length > 0)
      .map((line, i) => ({
        id: `${id}#line-${i + 1}`,
        type: 'Annotation',
        motivation: 'supplementing',
        body: {
          type: 'TextualBody',
          value: line.words.map((w) => w.word).join(''),
          format: 'text/plain',
          language: 'zh-Hant',
        },
        target: `${canvas}#${xywh(boundingBox(line.words.map((w) => w.points)))}`,
      })),
  };
}

/** One hit of a content search: the page, the matched characters' boxes, and text around the match. */
export interface SearchHit {
  page: PageRow;
  boxes: Array<{ left: number; top: number; right: number; bottom: number }>;
  exact: string;
  prefix: string;
  suffix: string;
}

/**
 * A IIIF Content Search 2.0 response: the hits as annotations on their canvases (the box around the
 * matched characters), with `contextualizing` annotations carrying the text before and after each.
 */
export function buildSearchResponse(
  base: string,
  requestUrl: string,
  volumeId: number,
  hits: SearchHit[],
  ignored: string[],
) {
  const service = base + searchServiceUrl(volumeId);
  const items = hits.map((hit, i) => ({
    id: `${service}/hit/${hit.page.id}-${i + 1}`,
    type: 'Annotation',
    motivation: 'supplementing',
    body: { type: 'TextualBody', value: hit.exact, format: 'text/plain' },
    target: `${base}${canvasUrl(volumeId, hit.page.id)}#${xywh(boundingBox(hit.boxes))}`,
  }));
  return {
    '@context': [CONTEXT, 'http://iiif.io/api/search/2/context.json'],
    id: requestUrl,
    type: 'AnnotationPage',
    ...(ignored.length > 0 ? { ignored } : {}),
    items,
    annotations: [
      {
        type: 'AnnotationPage',
        items: hits.map((hit, i) => ({
          id: `${service}/context/${hit.page.id}-${i + 1}`,
          type: 'Annotation',
          motivation: 'contextualizing',
          target: {
            type: 'SpecificResource',
            source: items[i]!.id,
            selector: [
              { type: 'TextQuoteSelector', prefix: hit.prefix, exact: hit.exact, suffix: hit.suffix },
            ],
          },
        })),
      },
    ],
  };
}

function thumbnail(base: string, pageId: number) {
  return {
    id: base + thumbnailUrl(pageId),
    type: 'Image',
    format: 'image/jpeg',
    service: [{ id: base + iiifImageBase(pageId), type: 'ImageService3', profile: 'level2' }],
  };
}

interface RangeDoc {
  id: string;
  type: 'Range';
  label: { zh: string[] };
  items: Array<{ id: string; type: 'Canvas' } | RangeDoc>;
}

/**
 * Ranges from the directory tree: each entry spans from its page up to the page before the next
 * entry (in reading order), or the end of the volume; children become nested ranges.
 */
function ranges(
  directory: DirectoryNode[],
  pageCount: number,
  canvas: (seq: number) => string | undefined,
  prefix: string,
): RangeDoc[] {
  const flat: DirectoryNode[] = [];
  const walk = (nodes: DirectoryNode[]) => {
    for (const node of nodes) {
      flat.push(node);
      walk(node.children);
    }
  };
  walk(directory);
  const starts = flat
    .map((n) => n.pageNumber)
    .filter((n): n is number => n !== null)
    .sort((a, b) => a - b);
  const endOf = (start: number) => {
    const next = starts.find((s) => s > start);
    return next === undefined ? pageCount : next - 1;
  };
  const build = (node: DirectoryNode): RangeDoc => {
    const canvases: Array<{ id: string; type: 'Canvas' }> = [];
    if (node.pageNumber !== null && node.children.length === 0) {
      for (let seq = node.pageNumber; seq <= endOf(node.pageNumber); seq++) {
        const id = canvas(seq);
        if (id) canvases.push({ id, type: 'Canvas' });
      }
    } else if (node.pageNumber !== null) {
      const id = canvas(node.pageNumber);
      if (id) canvases.push({ id, type: 'Canvas' });
    }
    return {
      id: `${prefix}/${node.directoryId}`,
      type: 'Range',
      label: zh(node.name),
      items: [...canvases, ...node.children.map(build)],
    };
  };
  return directory.map(build);
}

export function buildBookCollection(
  base: string,
  book: BookRow,
  volumes: Array<{ id: number; name: string }>,
) {
  return {
    '@context': CONTEXT,
    id: base + collectionUrl(book.id),
    type: 'Collection',
    label: zh(book.title),
    viewingDirection: 'right-to-left',
    items: volumes.map((volume) => ({
      id: base + manifestUrl(volume.id),
      type: 'Manifest',
      label: zh(`${book.title} ${volume.name}`),
    })),
  };
}

export function buildTopCollection(base: string, books: Array<{ book: BookRow; volumeIds: number[] }>) {
  return {
    '@context': CONTEXT,
    id: `${base}/iiif/collection/top`,
    type: 'Collection',
    label: zh('古籍数字图书馆 公开古籍'),
    items: books.map(({ book, volumeIds }) =>
      volumeIds.length === 1
        ? { id: base + manifestUrl(volumeIds[0]!), type: 'Manifest', label: zh(book.title) }
        : { id: base + collectionUrl(book.id), type: 'Collection', label: zh(book.title) },
    ),
  };
}
