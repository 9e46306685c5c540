import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/helpers.ts';
import { createHttpHarness, type HttpHarness } from '../../../test/http.ts';

/**
 * Our own conformance run of the IIIF Image API 3.0 at level 2, check by check as the official
 * validator (github.com/IIIF/image-validator, `iiif-validate.py --version=3.0 --level 2`) names its
 * tests, against a page made from a test image of the same kind: 1000×1000 px of 10×10 squares of
 * 100 px, each its own colour, so that every region, size, rotation and mirroring can be told from
 * the colours where they land. The validator judges a square by the most frequent colour of its
 * inside (a margin left for scaling and compression), within 6 per channel; so do we, on every square
 * rather than five random ones. Its random inputs come here from a seeded generator.
 *
 * Run the official validator against a running product as docs/api.md says; `size_noup` is its known
 * fault (it wants `!2000,3000` refused, while the specification says `!w,h` never upscales).
 */
const SIDE = 1000;
const SQUARE = 100;
/** The colour of square (x, y): distinct enough in some channel from every other to survive JPEG. */
const colour = (x: number, y: number): [number, number, number] => [
  20 + 23 * x,
  20 + 23 * y,
  230 - 11 * (x + y),
];
const TOLERANCE = 6;

async function testImage(): Promise<Buffer> {
  const pixels = Buffer.alloc(SIDE * SIDE * 3);
  for (let py = 0; py < SIDE; py++) {
    for (let px = 0; px < SIDE; px++) {
      const [r, g, b] = colour(Math.floor(px / SQUARE), Math.floor(py / SQUARE));
      pixels.set([r, g, b], (py * SIDE + px) * 3);
    }
  }
  return sharp(pixels, { raw: { width: SIDE, height: SIDE, channels: 3 } })
    .png()
    .toBuffer();
}

/** A small deterministic random generator (mulberry32), so that each run asks the same. */
function seeded(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  /** Characters 0x30–0x7a, the range the validator draws from, without those that end a path segment. */
  const text = (length: number) =>
    Array.from({ length }, () => String.fromCharCode(int(48, 122)))
      .join('')
      .replace(/[?#/]/g, '$');
  return { int, text };
}

interface Decoded {
  width: number;
  height: number;
  channels: number;
  data: Buffer;
  format: string | undefined;
}

async function decode(body: Buffer): Promise<Decoded> {
  const { format } = await sharp(body).metadata();
  const { data, info } = await sharp(body).raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: info.channels, data, format };
}

/** The most frequent colour (as RGB) inside a box of an image. */
function dominant(img: Decoded, left: number, top: number, width: number, height: number): number[] {
  const counts = new Map<string, number>();
  for (let y = top; y < top + height; y++) {
    for (let x = left; x < left + width; x++) {
      const i = (y * img.width + x) * img.channels;
      const rgb = img.channels >= 3 ? [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!] : [img.data[i]!];
      const key = rgb.join(',');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const [best] = [...counts].sort((a, b) => b[1] - a[1]);
  return best![0].split(',').map(Number);
}

const near = (got: number[], want: number[]) => want.every((v, i) => Math.abs(got[i]! - v) < TOLERANCE);

/**
 * Checks every square of an image showing the whole test image (or a rotation or mirror of it) at
 * `size`: the square at output position (i, j) must have the colour of source square `source(i, j)`.
 */
function expectSquares(
  img: Decoded,
  size: number,
  source: (i: number, j: number) => [number, number] = (i, j) => [i, j],
): void {
  const step = size / 10;
  const margin = Math.ceil(step * 0.2);
  const wrong: string[] = [];
  for (let j = 0; j < 10; j++) {
    for (let i = 0; i < 10; i++) {
      const got = dominant(
        img,
        Math.floor(i * step) + margin,
        Math.floor(j * step) + margin,
        Math.floor(step) - 2 * margin,
        Math.floor(step) - 2 * margin,
      );
      const [x, y] = source(i, j);
      if (!near(got, colour(x, y))) wrong.push(`(${i},${j}) ${got.join(',')} ≠ ${colour(x, y).join(',')}`);
    }
  }
  expect(wrong).toEqual([]);
}

describe.each(DIALECTS)(
  'IIIF Image API 3.0 conformance at level 2 (the official validator’s checks) on %s',
  (dialect) => {
    let h: HttpHarness;
    let id: number;
    const random = seeded(20_260_601);
    beforeAll(async () => {
      h = await createHttpHarness(dialect, { IIIF_RENDER_RATE_LIMIT_PER_MINUTE: '10000' });
      const result = await h.context.services.ingest.importBook({
        sourceKey: 'test:iiif-validator',
        title: 'IIIF 验证图',
        isVisible: true,
        isOpen: true,
        volumes: [
          {
            name: '卷一',
            introduction: null,
            pages: [{ name: '第1葉', source: 'validation.png', data: await testImage() }],
            directory: [{ name: '全文', pageIndex: 0 }],
          },
        ],
      });
      const worker = h.context.createWorker(pino({ level: 'silent' }));
      while (await worker.runOnce()) {
        /* make the pyramid */
      }
      id = result.pageIds[0]!;
    });
    afterAll(async () => h.close());

    /** A request as the validator sends it: no session, from outside, with an Origin. */
    const fetch = (url: string, headers: Record<string, string> = {}) =>
      h.request({
        method: 'GET',
        url,
        remoteAddress: '198.51.100.7',
        headers: { origin: 'http://iiif.io/', referer: 'http://iiif.io/api/image/validator', ...headers },
      });
    const image = async (
      region = 'full',
      size = 'max',
      rotation = '0',
      quality = 'default',
      format = 'jpg',
    ) => {
      const response = await fetch(`/iiif/3/${id}/${region}/${size}/${rotation}/${quality}.${format}`);
      expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
      return decode(response.rawPayload);
    };
    const status = async (path: string) => (await fetch(`/iiif/3/${path}`)).statusCode;

    // Level 0
    it('info_json: image information as the 3.0 specification requires', async () => {
      const response = await fetch(`/iiif/3/${id}/info.json`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/(ld\+)?json/);
      const info = response.json<Record<string, unknown>>();
      expect(info).toMatchObject({
        '@context': 'http://iiif.io/api/image/3/context.json',
        id: `http://localhost:80/iiif/3/${id}`,
        type: 'ImageService3',
        protocol: 'http://iiif.io/api/image',
        width: SIDE,
        height: SIDE,
      });
      expect(['level0', 'level1', 'level2']).toContain(info.profile);
      for (const size of info.sizes as Array<Record<string, unknown>>) {
        expect(Number.isInteger(size.width) && Number.isInteger(size.height)).toBe(true);
      }
      for (const tile of info.tiles as Array<Record<string, unknown>>) {
        expect(Number.isInteger(tile.width)).toBe(true);
        expect(Array.isArray(tile.scaleFactors)).toBe(true);
      }
      for (const list of ['extraQualities', 'extraFormats', 'extraFeatures']) {
        if (list in info) expect(Array.isArray(info[list]), list).toBe(true);
      }
      expect(info).not.toHaveProperty('license');
    });

    it('id_basic, id_squares, format_jpg: the right image, as JPEG', async () => {
      const img = await image();
      expect(img.format).toBe('jpeg');
      expect([img.width, img.height]).toEqual([SIDE, SIDE]);
      expectSquares(img, SIDE);
    });

    it('size_nofull: the 2.x size `full` is not a 3.0 size', async () => {
      expect(await status(`${id}/full/full/0/default.jpg`)).not.toBe(200);
    });

    // Level 1
    it('id_error_random, id_error_escapedslash, id_error_unescaped: unknown identifiers give 404', async () => {
      expect(await status(`${crypto.randomUUID()}/full/max/0/default.jpg`)).toBe(404);
      expect(await status('a/b/full/max/0/default.jpg')).toBe(404);
      expect(await status('[frob]/full/max/0/default.jpg')).toBe(404);
    });

    it('id_escaped: a percent-encoded identifier is the same image', async () => {
      const escaped = [...String(id)].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');
      expect(await status(`${escaped}/full/max/0/default.jpg`)).toBe(200);
    });

    it('cors, jsonld, baseurl_redirect: CORS, the JSON-LD media type and the base URI', async () => {
      const info = await fetch(`/iiif/3/${id}/info.json`, { accept: 'application/ld+json' });
      expect(info.headers['access-control-allow-origin']).toBe('*');
      expect(info.headers['content-type']).toMatch(/^application\/ld\+json/);
      const base = await fetch(`/iiif/3/${id}`);
      expect(base.statusCode).toBeGreaterThanOrEqual(300);
      expect(base.statusCode).toBeLessThan(400);
      expect(base.headers.location).toBe(`/iiif/3/${id}/info.json`);
    });

    it('format_error_random, quality_error_random, region_error_random, rot_error_random, size_error_random: 400', async () => {
      for (let n = 0; n < 5; n++) {
        const segment = (length: number) => encodeURIComponent(random.text(length));
        expect(await status(`${id}/full/max/0/default.${segment(3)}`)).toBe(400);
        expect(await status(`${id}/full/max/0/${segment(6)}.jpg`)).toBe(400);
        expect(await status(`${id}/${segment(6)}/max/0/default.jpg`)).toBe(400);
        expect(await status(`${id}/full/max/${segment(4)}/default.jpg`)).toBe(400);
        expect(await status(`${id}/full/${segment(6)}/0/default.jpg`)).toBe(400);
      }
    });

    it('region_pixels: regions in pixels inside each square', async () => {
      for (let n = 0; n < 5; n++) {
        const [x, y] = [random.int(0, 9), random.int(0, 9)];
        const img = await image(`${x * 100 + 13},${y * 100 + 13},74,74`);
        expect([img.width, img.height]).toEqual([74, 74]);
        expect(near(dominant(img, 0, 0, 74, 74), colour(x, y)), `${x},${y}`).toBe(true);
      }
    });

    it('region_square: the square region is square', async () => {
      const img = await image('square');
      expect(img.width).toBe(img.height);
    });

    it('size_wc, size_ch: sizes by width or height alone', async () => {
      const s = random.int(450, 750);
      const byWidth = await image('full', `${s},`);
      expect([byWidth.width, byWidth.height]).toEqual([s, s]);
      expectSquares(byWidth, s);
      const t = random.int(450, 750);
      const byHeight = await image('full', `,${t}`);
      expect([byHeight.width, byHeight.height]).toEqual([t, t]);
      expectSquares(byHeight, t);
    });

    it('size_region: a region at a given size', async () => {
      for (let n = 0; n < 5; n++) {
        const [s, x, y] = [random.int(35, 90), random.int(0, 9), random.int(0, 9)];
        const img = await image(`${x * 100},${y * 100},100,100`, `${s},${s}`);
        expect([img.width, img.height]).toEqual([s, s]);
        expect(near(dominant(img, 0, 0, s, s), colour(x, y)), `${x},${y} at ${s}`).toBe(true);
      }
    });

    it('size_noup: no upscaling without ^ (and !w,h fits without upscaling, as the specification says)', async () => {
      const s = random.int(1100, 2000);
      for (const size of [`${s},${s}`, `,${s}`, `${s},`, 'pct:200']) {
        expect(await status(`${id}/full/${size}/0/default.jpg`), size).toBe(400);
      }
      // The validator also wants `!2000,3000` refused; the specification fits the image inside the box
      // without upscaling, which gives it at its own size. This is the validator's known fault.
      const confined = await image('full', '!2000,3000');
      expect([confined.width, confined.height]).toEqual([SIDE, SIDE]);
    });

    // Level 2
    it('format_png: PNG', async () => {
      const img = await image('full', 'max', '0', 'default', 'png');
      expect(img.format).toBe('png');
      expectSquares(img, SIDE);
    });

    it('quality_color, quality_grey, quality_bitonal: the qualities', async () => {
      const color = await image('full', 'max', '0', 'color');
      expect(color.channels).toBeGreaterThanOrEqual(3);
      expectSquares(color, SIDE);

      const gray = await image('full', 'max', '0', 'gray');
      let grayish = 0;
      for (let i = 0; i < gray.data.length; i += gray.channels) {
        const [r, g, b] =
          gray.channels >= 3 ? [gray.data[i]!, gray.data[i + 1]!, gray.data[i + 2]!] : [0, 0, 0];
        if (Math.abs(r - g) < 5 && Math.abs(g - b) < 5) grayish++;
      }
      expect(gray.channels === 1 || grayish > 0.99 * SIDE * SIDE).toBe(true);

      const bitonal = await image('full', 'max', '0', 'bitonal');
      let extremes = 0;
      for (let i = 0; i < bitonal.data.length; i += bitonal.channels) {
        const v = bitonal.data[i]!;
        if (v < 5 || v > 250) extremes++;
      }
      // The validator asks that 65 % of the pixels be black or white; solid squares give nearly all.
      expect(extremes).toBeGreaterThan(0.9 * SIDE * SIDE);
    });

    it('region_percent: regions in percent inside each square', async () => {
      for (let n = 0; n < 5; n++) {
        const [x, y] = [random.int(0, 9), random.int(0, 9)];
        const img = await image(`pct:${x * 10 + 1},${y * 10 + 1},9,9`);
        expect([img.width, img.height]).toEqual([90, 90]);
        expect(near(dominant(img, 0, 0, 90, 90), colour(x, y)), `${x},${y}`).toBe(true);
      }
    });

    it('rot_full_basic: rotation by 90, 180 and 270 degrees, clockwise', async () => {
      expectSquares(await image('full', 'max', '90'), SIDE, (i, j) => [j, 9 - i]);
      expectSquares(await image('full', 'max', '180'), SIDE, (i, j) => [9 - i, 9 - j]);
      expectSquares(await image('full', 'max', '270'), SIDE, (i, j) => [9 - j, i]);
    });

    it('rot_region_basic: a region rotated by 180 degrees', async () => {
      for (let n = 0; n < 4; n++) {
        const [x, y] = [random.int(0, 9), random.int(0, 9)];
        const img = await image(`${x * 100 + 13},${y * 100 + 13},76,76`, 'max', '180');
        expect([75, 76, 77]).toContain(img.width);
        expect(near(dominant(img, 0, 0, img.width, img.height), colour(x, y)), `${x},${y}`).toBe(true);
      }
    });

    it('size_bwh, size_wh, size_percent: sizes by confining box, by both sides, by percent', async () => {
      const [w, hh] = [random.int(350, 750), random.int(350, 750)];
      const confined = await image('full', `!${w},${hh}`);
      expect([confined.width, confined.height]).toEqual([Math.min(w, hh), Math.min(w, hh)]);
      expectSquares(confined, Math.min(w, hh));
      const exact = await image('full', `${w},${hh}`);
      expect([exact.width, exact.height]).toEqual([w, hh]);
      const p = random.int(45, 75);
      const percent = await image('full', `pct:${p}`);
      expect([percent.width, percent.height]).toEqual([p * 10, p * 10]);
      expectSquares(percent, p * 10);
    });

    // Beyond level 2, the features info.json advertises in extraFeatures (the validator runs them as
    // level 3): visitors get them within the anonymous output cap.
    it('rot_mirror, rot_full_non90, size_up, linkheader_profile, linkheader_canonical', async () => {
      expectSquares(await image('full', 'max', '!0'), SIDE, (i, j) => [9 - i, j]);
      const turned = await image('full', 'max', String(random.int(1, 359)));
      expect(turned.width).toBeGreaterThan(0);
      const up = await image('full', '^!2000,3000');
      expect([up.width, up.height]).toEqual([2000, 2000]);
      const links = String((await fetch(`/iiif/3/${id}/full/max/0/default.jpg`)).headers.link);
      expect(links).toMatch(/<http:\/\/iiif\.io\/api\/image\/3\/level2\.json>;\s*rel="profile"/);
      expect(links).toContain(`</iiif/3/${id}/full/1000,1000/0/default.jpg>;rel="canonical"`);
    });
  },
);
