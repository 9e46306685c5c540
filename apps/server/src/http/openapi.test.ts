import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpHarness, type HttpHarness } from '../../test/http.ts';

/**
 * The API description at /api/docs (issue 31 item 8), judged by swagger-parser, as a client generator
 * would read it: five `$ref`s once pointed nowhere, file routes had no response, /api/v1 named no
 * Bearer scheme and an internal preflight route was listed.
 */
describe('the OpenAPI document', () => {
  let h: HttpHarness;
  let doc: {
    paths: Record<string, Record<string, { security?: unknown[] }>>;
    components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
  };
  beforeAll(async () => {
    h = await createHttpHarness('sqlite');
    doc = (await h.request({ method: 'GET', url: '/api/docs/json' })).json();
  });
  afterAll(async () => h.close());

  it('is a valid OpenAPI document whose every reference resolves', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
    // The tree-shaped answers refer to themselves through named components.
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['Classification', 'DirectoryNode', 'V1Classification', 'V1DirectoryEntry']),
    );
  });

  it('describes the read API’s Bearer token and leaves out the preflight route', () => {
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    const v1 = Object.entries(doc.paths).filter(([path]) => path.startsWith('/api/v1/'));
    expect(v1.length).toBeGreaterThan(5);
    for (const [path, operations] of v1)
      for (const operation of Object.values(operations))
        expect(operation.security, path).toEqual([{ bearer: [] }, {}]);
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/iiif/') && doc.paths[p]!.options)).toEqual([]);
  });
});
