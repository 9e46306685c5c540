import { describe, expect, it } from 'vitest';
import { makeBmp } from '../../../test/bmp.ts';
import { decodeBmp } from './bmp.ts';

const rgb = (decoded: ReturnType<typeof decodeBmp>, x: number, y: number) => {
  const at = (y * decoded!.width + x) * 3;
  return (decoded!.pixels[at]! << 16) | (decoded!.pixels[at + 1]! << 8) | decoded!.pixels[at + 2]!;
};
const MAX = 40_000_000;

describe('BMP decoder (avatars)', () => {
  const colours = [0xff0000, 0x00ff00, 0x0000ff, 0x123456];
  const pick = (x: number, y: number) => (x + 2 * y) % 4;

  it('reads 24-bit images bottom-up and top-down', () => {
    for (const topDown of [false, true]) {
      const decoded = decodeBmp(
        makeBmp({ width: 3, height: 2, bpp: 24, topDown, pixel: (x, y) => colours[pick(x, y)]! }),
        MAX,
      );
      expect(decoded).toMatchObject({ width: 3, height: 2 });
      for (let y = 0; y < 2; y++)
        for (let x = 0; x < 3; x++) expect(rgb(decoded, x, y)).toBe(colours[pick(x, y)]);
    }
  });

  it('reads 1-, 4- and 8-bit palette images', () => {
    for (const bpp of [1, 4, 8] as const) {
      const palette = bpp === 1 ? colours.slice(0, 2) : colours;
      const index = (x: number, y: number) => pick(x, y) % palette.length;
      const decoded = decodeBmp(makeBmp({ width: 5, height: 3, bpp, palette, pixel: index }), MAX);
      for (let y = 0; y < 3; y++)
        for (let x = 0; x < 5; x++) expect(rgb(decoded, x, y), `${bpp} bit`).toBe(palette[index(x, y)]);
    }
  });

  it('reads 16-bit 5-5-5, 32-bit BI_RGB and 32-bit bit-field images', () => {
    const rgb555 = decodeBmp(makeBmp({ width: 1, height: 1, bpp: 16, pixel: () => 0x7c00 }), MAX);
    expect(rgb(rgb555, 0, 0)).toBe(0xff0000);
    const bgrx = decodeBmp(makeBmp({ width: 2, height: 1, bpp: 32, pixel: () => 0xff123456 }), MAX);
    expect(rgb(bgrx, 1, 0)).toBe(0x123456);
    const fields = decodeBmp(
      makeBmp({
        width: 1,
        height: 1,
        bpp: 32,
        masks: [0x0000ff00, 0x00ff0000, 0xff000000],
        pixel: () => 0x563412ff,
      }),
      MAX,
    );
    expect(rgb(fields, 0, 0)).toBe(0x123456);
  });

  it('refuses malformed and unsupported files instead of reading past them', () => {
    const good = makeBmp({ width: 4, height: 4, bpp: 24, pixel: () => 0 });
    const broken: Array<[string, Buffer]> = [
      ['truncated pixel rows', good.subarray(0, good.length - 1)],
      ['not a BMP', Buffer.concat([Buffer.from('XX'), good.subarray(2)])],
      ['RLE8', makeBmp({ width: 2, height: 2, bpp: 8, palette: [0], pixel: () => 0, compression: 1 })],
      [
        'a palette index past the palette',
        makeBmp({ width: 2, height: 1, bpp: 8, palette: [0, 1], pixel: () => 5 }),
      ],
      [
        'a non-contiguous mask',
        makeBmp({ width: 1, height: 1, bpp: 32, masks: [0xf0f0, 0xff0000, 0xff], pixel: () => 0 }),
      ],
    ];
    const huge = Buffer.from(good);
    huge.writeInt32LE(100_000, 18);
    huge.writeInt32LE(100_000, 22);
    broken.push(['10 000 000 000 pixels', huge]);
    const offset = Buffer.from(good);
    offset.writeUInt32LE(0xfffffff0, 10);
    broken.push(['pixel offset past the end', offset]);
    const header = Buffer.from(good);
    header.writeUInt32LE(12, 14);
    broken.push(['an OS/2 header', header]);
    for (const [what, data] of broken) expect(decodeBmp(data, MAX), what).toBeUndefined();
    expect(decodeBmp(good, 15)).toBeUndefined();
  });
});
