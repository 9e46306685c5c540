import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

/** The built web app as the server serves it. */
export interface WebApp {
  webDist: string;
  /** index.html as served, or undefined when the app is not built. */
  pages: WebPages | undefined;
  /**
   * CSP sources (`'sha256-…'`) of the inline scripts of index.html: the page's own early script (the
   * reader's first page image, apps/web/index.html) runs under `script-src 'self'` by its hash.
   */
  scriptHashes: string[];
}

interface WebPages {
  /** index.html for /Book, naming the reader's chunks. */
  reader: string;
  other: string;
}

/** A chunk of the build manifest (dist/.vite/manifest.json) of Vite. */
interface ManifestChunk {
  file: string;
  src?: string;
  imports?: string[];
}

/** Reads the built app (apps/web/dist) once, at start. */
export function readWebApp(webDist: string): WebApp {
  const index = path.join(webDist, 'index.html');
  if (!fs.existsSync(index)) return { webDist, pages: undefined, scriptHashes: [] };
  const html = fs.readFileSync(index, 'utf8');
  return { webDist, pages: webPages(webDist, html), scriptHashes: inlineScriptHashes(html) };
}

/** The CSP hash source of every inline `<script>` (one without `src`) of a page. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)]
    .filter((match) => match[1]!.trim() !== '')
    .map((match) => `'sha256-${createHash('sha256').update(match[1]!).digest('base64')}'`);
}

/**
 * index.html with `<link rel="modulepreload">` on /Book for the reader's chunk and everything it
 * imports: the browser then fetches and compiles them while the application starts instead of after it
 * (measured: the reader's chunk was asked for ~0.4 s after navigation, only once the app had rendered).
 * Without a manifest the page is served as built.
 */
export function webPages(webDist: string, html: string): WebPages {
  let manifest: Record<string, ManifestChunk>;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(webDist, '.vite', 'manifest.json'), 'utf8')) as Record<
      string,
      ManifestChunk
    >;
  } catch {
    return { reader: html, other: html.replace(READER_IMAGE_SLOT, '') };
  }
  const entry = Object.values(manifest).find((chunk) => chunk.src === 'index.html');
  const inEntry = new Set([entry?.file, ...(entry?.imports ?? []).map((key) => manifest[key]?.file)]);
  const chunkFiles = (match: (key: string) => boolean): string[] => {
    const files = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || files.has(chunk.file)) return;
      files.add(chunk.file);
      for (const child of chunk.imports ?? []) visit(child);
    };
    for (const key of Object.keys(manifest)) if (match(key)) visit(key);
    return [...files].filter((file) => !inEntry.has(file));
  };
  const links = (files: string[]) =>
    files.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('');
  const reader = chunkFiles((key) => key.endsWith('features/reader/pages/reader-page.tsx'));
  return {
    reader: html.replace('</head>', `${links(reader)}</head>`),
    other: html.replace(READER_IMAGE_SLOT, ''),
  };
}

/** Where index.html takes the reader's early page image link (features/catalog/reader-image-head.ts). */
export const READER_IMAGE_SLOT = '<!-- reader-preview-image -->';

/** What the server adds to a page it serves, per request. */
export interface PageAdditions {
  /** Tags for the end of `<head>` (the citation tags of a book or reader page). */
  head: (request: FastifyRequest, reply: FastifyReply) => Promise<string>;
  /** The reader's early page image link, put in index.html's slot on /Book (or nothing). */
  readerImage: (request: FastifyRequest) => Promise<string>;
}

/**
 * Serves the built React app: files from apps/web/dist, and index.html for every other page path so
 * client-side routes load directly. /api and /iiif paths never fall back to the page.
 */
export function serveWebApp(app: FastifyInstance, web: WebApp, additions: PageAdditions): void {
  const { pages, webDist } = web;
  if (pages) {
    void app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // The build writes NAME.br and NAME.gz beside each text file (apps/web/build/precompress.ts):
      // sent as they are to browsers that accept them, with Vary: Accept-Encoding.
      preCompressed: true,
      setHeaders: (res, filePath) => {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else {
    app.log.warn({ webDist }, 'web app not built: run `npm run build` to serve the site');
  }
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    const isPage =
      request.method === 'GET' && !pathname.startsWith('/api/') && !pathname.startsWith('/iiif/');
    if (pages && isPage) {
      const reader = pathname === '/Book';
      // The reader's page differs with the session: never kept by a shared cache.
      void reply
        .type('text/html; charset=utf-8')
        .header('cache-control', reader ? 'private, no-cache' : 'no-cache');
      // Both look the page up: at the same time, not one after the other.
      const [image, head] = await Promise.all([
        reader
          ? additions.readerImage(request).catch((error: unknown) => {
              request.log.warn({ err: error }, 'early page image left out of the page');
              return '';
            })
          : '',
        additions.head(request, reply),
      ]);
      const page = reader ? pages.reader.replace(READER_IMAGE_SLOT, image) : pages.other;
      return reply.send(head ? page.replace('</head>', `${head}</head>`) : page);
    }
    return reply
      .status(404)
      .send({ code: 'NOT_FOUND', message: `接口不存在：${request.method} ${pathname}` });
  });
}
