/** Image types recognised from their first bytes, never from the file name alone (DESIGN.md §8). */
export type SniffedImage = 'jpeg' | 'png' | 'bmp' | 'tiff' | 'webp';

export function sniffImage(data: Buffer): SniffedImage | undefined {
  if (data.length < 12) return undefined;
  if (data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  if (data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (data[0] === 0x42 && data[1] === 0x4d) return 'bmp';
  const head = data.subarray(0, 4).toString('latin1');
  if (head === 'II*\0' || head === 'MM\0*') return 'tiff';
  if (head === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  return undefined;
}
