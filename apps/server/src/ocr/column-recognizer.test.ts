import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { demoLeaf } from '../../test/demo-leaf.ts';
import { characterErrorRate } from './cer.ts';
import { ColumnRecognizer, decodeCtc, normalise } from './column-recognizer.ts';

/** Per-step probabilities of `classes` classes from each step's winning class and its probability. */
function steps(classes: number, winners: Array<[number, number]>): Float32Array {
  const probs = new Float32Array(winners.length * classes);
  winners.forEach(([c, p], t) => {
    probs.fill((1 - p) / (classes - 1), t * classes, (t + 1) * classes);
    probs[t * classes + c] = p;
  });
  return probs;
}

describe('CTC decoding of a column', () => {
  it('merges repeats, drops blanks, keeps a character twice when a blank parts it', () => {
    const probs = steps(5, [
      [0, 0.9],
      [3, 0.8],
      [3, 0.95],
      [0, 0.9],
      [3, 0.7],
      [1, 0.6],
      [0, 0.99],
    ]);
    const read = decodeCtc(probs, 7, 5);
    expect(read.map((r) => r.candidates[0]!.c)).toEqual([3, 3, 1]);
    // The peak is the step where the character's class is likeliest.
    expect(read.map((r) => r.peak)).toEqual([2, 4, 5]);
    expect(read[0]!.candidates[0]!.p).toBeCloseTo(0.95);
    // Candidates are the other classes too, best first, never the blank.
    expect(read[0]!.candidates.every((c) => c.c !== 0)).toBe(true);
    expect(read[0]!.candidates.map((c) => c.p)).toEqual(
      [...read[0]!.candidates.map((c) => c.p)].sort((a, b) => b - a),
    );
  });

  it('reads nothing in a column of blanks', () => {
    expect(
      decodeCtc(
        steps(4, [
          [0, 0.99],
          [0, 0.98],
        ]),
        2,
        4,
      ),
    ).toEqual([]);
  });
});

describe('the contrast stretch the model was trained with', () => {
  it('makes the 2nd percentile black and the 98th white, as training/synth.py does', () => {
    const grey = Uint8Array.from({ length: 101 * 48 }, (_, i) =>
      Math.round(51 + (Math.floor(i / 48) / 100) * 153),
    );
    const out = normalise(grey);
    expect(Math.min(...out)).toBe(0);
    expect(Math.max(...out)).toBe(1);
    // A page of one grey is not stretched into noise (the span is at least 0.15).
    expect(Math.max(...normalise(new Uint8Array(480).fill(200)))).toBeLessThanOrEqual(1);
  });
});

describe('the shipped column recogniser', () => {
  let recognizer: ColumnRecognizer;
  beforeAll(async () => {
    recognizer = await ColumnRecognizer.load();
  });
  afterAll(async () => recognizer.release());

  it('reads a typeset column of classical text, each character boxed where it stands, top to bottom', async () => {
    const rendered = await demoLeaf('mengzi', 3);
    const { data, info } = await sharp(rendered.png).greyscale().raw().toBuffer({ resolveWithObject: true });
    const image = { width: info.width, height: info.height, data: new Uint8Array(data) };
    // The leaf's longest column, as the layout would give it: its characters' extent.
    const line = [...rendered.ocr.ocr_res.content].sort((a, b) => b.words.length - a.words.length)[0]!;
    const box = {
      left: Math.min(...line.words.map((w) => w.points.left)),
      right: Math.max(...line.words.map((w) => w.points.right)),
      top: Math.min(...line.words.map((w) => w.points.top)) - 8,
      bottom: Math.max(...line.words.map((w) => w.points.bottom)) + 8,
    };
    const read = await recognizer.readColumn(image, box, 128);
    const truth = line.words.map((w) => w.word).join('');
    expect(characterErrorRate(truth, read.map((c) => c.char).join(''))).toBeLessThan(0.15);
    // Boxes down the column in order, inside it.
    for (const [i, char] of read.entries()) {
      expect(char.box.top).toBeGreaterThanOrEqual(box.top);
      expect(char.box.bottom).toBeLessThanOrEqual(box.bottom);
      if (i > 0) expect(char.box.top).toBeGreaterThanOrEqual(read[i - 1]!.box.top);
      expect(char.candidates[0]!.key).toBe(char.char);
    }
  });
});
