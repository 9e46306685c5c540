import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@guji/shared';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';
import { DIALECTS } from '../../../test/helpers.ts';
import { personalClient, personalData, type TestBook } from './personal-test-kit.ts';

describe.each(DIALECTS)('notes over HTTP (%s)', (dialect) => {
  let h: HttpHarness;
  let alice: string;
  let bob: string;
  let open: TestBook;
  let closed: TestBook;
  const as = (cookie: string) => personalClient(h, cookie);

  beforeAll(async () => {
    h = await createHttpHarness(dialect);
    ({ alice, bob, open, closed } = await personalData(h));
  });
  afterAll(async () => h.close());

  it('notes: private rectangles on a page, edited and deleted by their author only, exported as Web Annotations', async () => {
    const a = as(alice);
    const created = await a.post('/api/notes', {
      imageId: open.pageIds[1],
      x: 10,
      y: 20,
      w: 100,
      h: 50,
      text: '此處異文',
    });
    expect(created.statusCode).toBe(200);
    const note = created.json<{ id: number; x: number; w: number }>();
    // A rectangle past the edge is clipped to the image.
    const clipped = (
      await a.post('/api/notes', { imageId: open.pageIds[1], x: 550, y: 0, w: 500, h: 10, text: '邊' })
    ).json<{ w: number }>();
    expect(clipped.w).toBe(50);
    expect(
      (await a.post('/api/notes', { imageId: open.pageIds[1], x: 0, y: 0, w: 5, h: 5, text: '' })).json(),
    ).toMatchObject({ message: MSG.noteEmpty });
    // No notes on a book one may not read.
    expect(
      (await a.post('/api/notes', { imageId: closed.pageIds[0], x: 0, y: 0, w: 5, h: 5, text: '偷看' }))
        .statusCode,
    ).toBe(403);

    expect((await a.get(`/api/pages/${open.pageIds[1]}/notes`)).json<unknown[]>()).toHaveLength(2);
    expect((await as(bob).get(`/api/pages/${open.pageIds[1]}/notes`)).json<unknown[]>()).toHaveLength(0);
    expect((await as(bob).patch(`/api/notes/${note.id}`, { text: '改' })).statusCode).toBe(404);
    expect((await as(bob).del(`/api/notes/${note.id}`)).statusCode).toBe(404);
    expect((await a.patch(`/api/notes/${note.id}`, { text: '此處異文：一作「悅」' })).json()).toMatchObject({
      text: '此處異文：一作「悅」',
    });

    const list = (await a.get('/api/me/notes')).json<{
      total: number;
      records: Array<{ pageNumber: number; volumeName: string }>;
    }>();
    expect(list.total).toBe(2);
    expect(list.records[0]).toMatchObject({ pageNumber: 2, volumeName: '卷一' });

    const exported = await a.get('/api/me/notes/export');
    expect(exported.headers['content-type']).toContain('application/ld+json');
    const page = exported.json<Record<string, unknown>>();
    expect(validateAnnotationPage(page)).toEqual([]);
    // The schema does catch a broken export.
    expect(validateAnnotationPage({ ...page, items: [{ type: 'Annotation' }] })).not.toEqual([]);
    const items = page.items as Array<{ target: { selector: { value: string }; source: { id: string } } }>;
    expect(items.map((i) => i.target.selector.value)).toContain('xywh=10,20,100,50');
    expect(items[0]!.target.source.id).toMatch(
      new RegExp(`/iiif/presentation/volumes/${open.volumeIds[0]}/canvas/${open.pageIds[1]}$`),
    );
    expect((await as(bob).get('/api/me/notes/export')).json<{ items: unknown[] }>().items).toHaveLength(0);
    expect((await a.del(`/api/notes/${note.id}`)).statusCode).toBe(200);
  });

  it('note ids resolve: GET /api/notes/{id} is the exported annotation, for its author only', async () => {
    const a = as(alice);
    const note = (
      await a.post('/api/notes', { imageId: open.pageIds[0], x: 5, y: 6, w: 70, h: 80, text: '可資參證' })
    ).json<{ id: number }>();
    const exported = (await a.get('/api/me/notes/export')).json<{ items: Array<{ id: string }> }>();
    const item = exported.items.find((i) => i.id.endsWith(`/api/notes/${note.id}`));
    expect(item).toBeDefined();
    // The exported id, dereferenced, gives the same annotation with its JSON-LD context.
    const one = await a.get(new URL(item!.id).pathname);
    expect(one.statusCode).toBe(200);
    expect(one.headers['content-type']).toMatch(
      /^application\/ld\+json; profile="http:\/\/www\.w3\.org\/ns\/anno\.jsonld"(; charset=utf-8)?$/,
    );
    expect(one.headers['cache-control']).toBe('private, no-store');
    expect(one.json()).toEqual({ '@context': 'http://www.w3.org/ns/anno.jsonld', ...item });
    // It meets the Web Annotation MUSTs (checked as the one item of a page).
    const { '@context': context, ...annotation } = one.json<Record<string, unknown>>();
    expect(
      validateAnnotationPage({
        '@context': context,
        id: `${item!.id}/page`,
        type: 'AnnotationPage',
        items: [annotation],
      }),
    ).toEqual([]);
    // Nobody else, signed in or not, learns that it exists.
    const bobs = await as(bob).get(`/api/notes/${note.id}`);
    expect(bobs.statusCode).toBe(404);
    expect(bobs.json()).toEqual((await a.get('/api/notes/999999')).json());
    expect((await h.request({ method: 'GET', url: `/api/notes/${note.id}` })).statusCode).toBe(401);
    expect((await a.get('/api/notes/abc')).statusCode).toBe(400);
    expect((await a.del(`/api/notes/${note.id}`)).statusCode).toBe(200);
    expect((await a.get(`/api/notes/${note.id}`)).statusCode).toBe(404);
  });
});

/**
 * A JSON schema of the MUST properties of the W3C Web Annotation Data Model (§3.1 annotations: @context,
 * id, type, target; §3.2 bodies and targets: an IRI or a resource with an id, TextualBody with a value;
 * §4.2 selectors: a type and a value; §4.3 collections: AnnotationPage with items) for what we export.
 */
const IRI = { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9+.-]*:' };
const ANNOTATION_PAGE_SCHEMA = {
  type: 'object',
  required: ['@context', 'id', 'type', 'items'],
  properties: {
    '@context': {
      anyOf: [
        { const: 'http://www.w3.org/ns/anno.jsonld' },
        { type: 'array', contains: { const: 'http://www.w3.org/ns/anno.jsonld' } },
      ],
    },
    id: IRI,
    type: { const: 'AnnotationPage' },
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'type', 'target'],
        properties: {
          id: IRI,
          type: { const: 'Annotation' },
          created: { type: 'string', format: 'date-time' },
          modified: { type: 'string', format: 'date-time' },
          body: {
            anyOf: [
              IRI,
              {
                type: 'object',
                required: ['type', 'value'],
                properties: { type: { const: 'TextualBody' }, value: { type: 'string' } },
              },
              { type: 'object', required: ['id'], properties: { id: IRI } },
            ],
          },
          target: {
            anyOf: [
              IRI,
              {
                type: 'object',
                required: ['source'],
                properties: {
                  source: { anyOf: [IRI, { type: 'object', required: ['id'], properties: { id: IRI } }] },
                  selector: {
                    type: 'object',
                    required: ['type', 'value'],
                    properties: {
                      type: { const: 'FragmentSelector' },
                      value: { type: 'string', pattern: '^xywh=(pixel:)?\\d+,\\d+,\\d+,\\d+$' },
                      conformsTo: IRI,
                    },
                  },
                },
              },
            ],
          },
        },
      },
    },
  },
};

/** Problems the schema finds (empty when the document conforms). */
function validateAnnotationPage(doc: unknown): string[] {
  const ajv = new Ajv({ allErrors: true, validateFormats: false });
  const validate = ajv.compile(ANNOTATION_PAGE_SCHEMA);
  return validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}
