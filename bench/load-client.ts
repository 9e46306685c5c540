/**
 * The simulated readers of bench/load.ts: what one person in the reading room does with the site, as the
 * web app's requests (apps/web/src/features/reader: the volume's reader data and the page's info.json,
 * then the 512² IIIF tiles OpenSeadragon asks for at the fitted zoom, the neighbours' info.json fetched in
 * advance, the page's notes, a footprint a second after a turn), with a think time between actions.
 */
import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import { sleep } from './lib.ts';

/** The actions whose latency is reported, in the order of a reading session. */
export const ACTIONS = ['open', 'turn', 'search', 'in-book', 'print', 'checkout'] as const;
export type Action = (typeof ACTIONS)[number] | 'footprint' | 'login';

/** The viewer's image pane on a 1280×800 desktop window (image mode, side panel open), device pixels. */
const PANE = { width: 960, height: 690 };
const TILE = 512;
/** Page turns per book before the reader searches, prints and opens another. */
const TURNS_PER_BOOK = 8;
/** Searches a reader of the classics would type (frequent and rarer, 1–4 characters). */
const SEARCHES = ['子曰', '天下', '君子', '之', '仁', '學而', '孝', '道之', '天命', '禮樂'];

export interface Sample {
  action: Action;
  /** Milliseconds since the run began, when the action started. */
  at: number;
  ms: number;
  ok: boolean;
}

/** One keep-alive connection pool per reader, as a browser holds for a site (6 at once). */
export function readerAgent(origin: string): http.Agent {
  return origin.startsWith('https:')
    ? new https.Agent({ keepAlive: true, maxSockets: 6, rejectUnauthorized: false })
    : new http.Agent({ keepAlive: true, maxSockets: 6 });
}

export interface Reply {
  status: number;
  body: Buffer;
  headers: http.IncomingHttpHeaders;
}

/** HTTP requests sent so far by every simulated reader; pages shown and the tiles they took. */
export const sent = { requests: 0, pages: 0, tiles: 0 };

/** One request; rejects on a network error or after 30 s. */
export function send(
  origin: string,
  agent: http.Agent,
  method: string,
  path: string,
  options: { cookie?: string; json?: unknown } = {},
): Promise<Reply> {
  const url = new URL(path, origin);
  const body = options.json === undefined ? undefined : Buffer.from(JSON.stringify(options.json));
  const headers: Record<string, string> = {
    'accept-encoding': 'gzip, br',
    ...(options.cookie ? { cookie: `guji_session=${options.cookie}` } : {}),
    // State-changing requests carry the page's origin, as a browser sends it (CSRF check).
    ...(method !== 'GET' ? { origin } : {}),
    ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}),
  };
  const client = url.protocol === 'https:' ? https : http;
  sent.requests += 1;
  return new Promise((resolve, reject) => {
    const request = client.request(url, { method, agent, headers, timeout: 30_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        try {
          resolve({
            status: response.statusCode ?? 0,
            body: decoded(response, chunks),
            headers: response.headers,
          });
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`timeout: ${method} ${path}`)));
    request.on('error', reject);
    request.end(body);
  });
}

/** The body as sent before compression (nginx compresses JSON; a browser asks it to). */
function decoded(response: http.IncomingMessage, chunks: Buffer[]): Buffer {
  const body = Buffer.concat(chunks);
  const encoding = response.headers['content-encoding'];
  if (encoding === 'gzip') return zlib.gunzipSync(body);
  if (encoding === 'br') return zlib.brotliDecompressSync(body);
  return body;
}

/** Throws unless the reply is 2xx; returns its JSON. */
export function ok<T>(reply: Reply, what: string): T {
  if (reply.status >= 400 || reply.status === 0)
    throw new Error(`${what}: ${reply.status} ${reply.body.toString('utf8').slice(0, 120)}`);
  const type = String(reply.headers['content-type'] ?? '');
  return (type.includes('json') ? JSON.parse(reply.body.toString('utf8')) : undefined) as T;
}

interface ImageInfo {
  width: number;
  height: number;
}

/**
 * The tiles OpenSeadragon asks for on a page fitted to the pane (immediateRender, minPixelRatio 0.5): the
 * finest level at most twice the displayed size, every tile of it (the whole page is on screen), each
 * `/x,y,w,h/width,height/0/default.jpg` on the 512² grid of that level.
 */
export function fitTiles(imageBase: string, info: ImageInfo): string[] {
  const shown = Math.min(PANE.width / info.width, PANE.height / info.height);
  let scale = 1;
  while (info.width / scale > 2 * info.width * shown) scale *= 2;
  const span = TILE * scale;
  const tiles: string[] = [];
  for (let y = 0; y < info.height; y += span) {
    for (let x = 0; x < info.width; x += span) {
      const w = Math.min(span, info.width - x);
      const h = Math.min(span, info.height - y);
      tiles.push(
        `${imageBase}/${x},${y},${w},${h}/${Math.ceil(w / scale)},${Math.ceil(h / scale)}/0/default.jpg`,
      );
    }
  }
  return tiles;
}

interface ReaderPage {
  imageId: number;
  iiifBase: string;
}
interface ReaderData {
  book: { catalogId: number };
  pages: ReaderPage[];
}

/** A reader: logs nothing in itself (its session cookie is given), reads until `stopAt`. */
export class SimulatedReader {
  private readonly agent: http.Agent;
  private readonly info = new Map<string, Promise<ImageInfo>>();

  constructor(
    private readonly origin: string,
    private readonly cookie: string,
    private readonly books: number[],
    private readonly random: () => number,
    private readonly record: (sample: Sample) => void,
    private readonly clock: () => number,
  ) {
    this.agent = readerAgent(origin);
  }

  private get(path: string) {
    return send(this.origin, this.agent, 'GET', path, { cookie: this.cookie });
  }

  private async timed(action: Action, work: () => Promise<unknown>): Promise<boolean> {
    const at = this.clock();
    const started = performance.now();
    let success = true;
    try {
      await work();
    } catch (error) {
      success = false;
      errorsSeen.add(action, error);
    }
    this.record({ action, at, ms: performance.now() - started, ok: success });
    return success;
  }

  private think(): Promise<unknown> {
    return sleep(1000 + this.random() * 2000);
  }

  private imageInfo(base: string): Promise<ImageInfo> {
    let info = this.info.get(base);
    if (!info) {
      info = this.get(`${base}/info.json`).then((reply) => ok<ImageInfo>(reply, 'info.json'));
      info.catch(() => this.info.delete(base));
      this.info.set(base, info);
    }
    return info;
  }

  /** The page drawn: its tiles at the fitted zoom, its notes; the neighbours' info.json asked in advance. */
  private async showPage(data: ReaderData, index: number): Promise<void> {
    const page = data.pages[index]!;
    const path = new URL(page.iiifBase, this.origin).pathname;
    for (const near of [data.pages[index - 1], data.pages[index + 1]])
      if (near) void this.imageInfo(new URL(near.iiifBase, this.origin).pathname).catch(() => undefined);
    const tiles = fitTiles(path, await this.imageInfo(path));
    sent.pages += 1;
    sent.tiles += tiles.length;
    await Promise.all([
      ...tiles.map(async (tile) => ok(await this.get(tile), 'tile')),
      this.get(`/api/pages/${page.imageId}/notes`).then((reply) => ok(reply, 'notes')),
    ]);
  }

  /** Reads book after book until `stopAt` (a clock time); an action under way is finished. */
  async run(stopAt: () => number): Promise<void> {
    const live = () => this.clock() < stopAt();
    while (live()) {
      const catalogId = this.books[Math.floor(this.random() * this.books.length)]!;
      let data: ReaderData | undefined;
      let index = 0;
      const opened = await this.timed('open', async () => {
        data = ok<ReaderData>(await this.get(`/api/reader?catalogId=${catalogId}`), 'reader');
        index = Math.floor(this.random() * Math.max(1, data.pages.length - TURNS_PER_BOOK));
        await this.showPage(data, index);
      });
      if (!opened || !data) {
        await this.think();
        continue;
      }
      const book = data;
      for (let turn = 0; turn < TURNS_PER_BOOK && live(); turn++) {
        await sleep(1000);
        const imageId = book.pages[index]!.imageId;
        await this.timed('footprint', async () =>
          ok(
            await send(this.origin, this.agent, 'POST', '/api/me/footprints', {
              cookie: this.cookie,
              json: { imageId },
            }),
            'footprint',
          ),
        );
        await sleep(this.random() * 2000);
        if (index + 1 >= book.pages.length) break;
        index += 1;
        await this.timed('turn', () => this.showPage(book, index));
      }
      const text = SEARCHES[Math.floor(this.random() * SEARCHES.length)]!;
      if (!live()) break;
      await this.timed('search', async () =>
        ok(await this.get(`/api/search/full-text/books?text=${encodeURIComponent(text)}`), 'search'),
      );
      await this.think();
      if (!live()) break;
      await this.timed('in-book', async () =>
        ok(await this.get(`/api/books/${catalogId}/text-search?text=${encodeURIComponent(text)}`), 'in-book'),
      );
      await this.think();
      if (!live()) break;
      const imageId = book.pages[index]!.imageId;
      await this.timed('print', async () =>
        ok(
          await send(this.origin, this.agent, 'POST', '/api/print/items', {
            cookie: this.cookie,
            json: { imageId },
          }),
          'print',
        ),
      );
      await this.think();
      if (!live()) break;
      await this.timed('checkout', async () => {
        const unpaid = ok<{ records: Array<{ id: number }> }>(
          await this.get('/api/print/items?tab=unpaid'),
          'unpaid',
        );
        const itemIds = unpaid.records.slice(0, 10).map((item) => item.id);
        if (itemIds.length === 0) throw new Error('checkout: no unpaid item');
        const body = { itemIds, extract: 0, payment: 0, isInvoice: 0 };
        ok(
          await send(this.origin, this.agent, 'POST', '/api/print/orders', {
            cookie: this.cookie,
            json: body,
          }),
          'checkout',
        );
      });
      await this.think();
    }
    this.agent.destroy();
  }
}

/** The first few failures of each action, for the report. */
export const errorsSeen = {
  examples: new Map<string, string[]>(),
  add(action: Action, error: unknown): void {
    const list = this.examples.get(action) ?? [];
    if (list.length < 3) list.push(error instanceof Error ? error.message : String(error));
    this.examples.set(action, list);
  },
};
