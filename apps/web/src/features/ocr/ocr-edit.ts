import { boundingBox, type OcrJson, type OcrWord } from '@guji/shared';

/** A character of the page body: column (content line) and position in it. */
export interface CellRef {
  line: number;
  index: number;
}

/** Edits of the proofreading page; each returns a new OCR JSON and leaves the old one as it was. */
function withContent(ocr: OcrJson, edit: (content: OcrWord[][]) => OcrWord[][]): OcrJson {
  const content = edit(
    ocr.ocr_res.content.map((line) => line.words.map((word) => ({ ...word, points: { ...word.points } }))),
  );
  return {
    ...ocr,
    ocr_res: {
      ...ocr.ocr_res,
      content: content.filter((words) => words.length > 0).map((words) => ({ words })),
    },
  };
}

/** Corrects one character (a single code point; confidence becomes 1, it was read by a person). */
export function setCharacter(ocr: OcrJson, cell: CellRef, char: string): OcrJson {
  const first = [...char.trim()][0];
  if (!first) return ocr;
  return withContent(ocr, (content) => {
    const word = content[cell.line]?.[cell.index];
    if (word) {
      word.word = first;
      word.confidence = 1;
    }
    return content;
  });
}

/** Marks a character as a small note (雙行小注) or as main text. */
export function setNote(ocr: OcrJson, cell: CellRef, note: boolean): OcrJson {
  return withContent(ocr, (content) => {
    const word = content[cell.line]?.[cell.index];
    if (word) word.type = note ? 'note' : 'text';
    return content;
  });
}

/** Merges a cell with the next one in its column: one box around both, the first cell's character. */
export function mergeWithNext(ocr: OcrJson, cell: CellRef): OcrJson {
  return withContent(ocr, (content) => {
    const words = content[cell.line];
    const a = words?.[cell.index];
    const b = words?.[cell.index + 1];
    if (!words || !a || !b) return content;
    a.points = boundingBox([a.points, b.points]);
    a.fontSize = Math.max(a.fontSize, b.fontSize);
    a.confidence = Math.min(a.confidence, b.confidence);
    words.splice(cell.index + 1, 1);
    return content;
  });
}

/**
 * Splits a cell into two along the column (top and bottom halves): the first keeps the character,
 * the second starts as 〇 for the proofreader to type.
 */
export function splitCell(ocr: OcrJson, cell: CellRef): OcrJson {
  return withContent(ocr, (content) => {
    const words = content[cell.line];
    const a = words?.[cell.index];
    if (!words || !a || a.points.bottom - a.points.top < 2) return content;
    const middle = Math.round((a.points.top + a.points.bottom) / 2);
    const second: OcrWord = {
      ...a,
      word: '〇',
      confidence: 0,
      points: { ...a.points, top: middle },
      fontSize: Math.round(a.fontSize / 2),
    };
    a.points = { ...a.points, bottom: middle };
    a.fontSize = Math.round(a.fontSize / 2);
    words.splice(cell.index + 1, 0, second);
    return content;
  });
}

/** Removes a cell that is not a character (a stain, a mark). An emptied column goes too. */
export function removeCell(ocr: OcrJson, cell: CellRef): OcrJson {
  return withContent(ocr, (content) => {
    content[cell.line]?.splice(cell.index, 1);
    return content;
  });
}

/** Moves a column earlier (-1) or later (+1) in reading order (the spec's ocrSort). */
export function moveColumn(ocr: OcrJson, line: number, delta: -1 | 1): OcrJson {
  return withContent(ocr, (content) => {
    const target = line + delta;
    if (target < 0 || target >= content.length) return content;
    const [moved] = content.splice(line, 1);
    content.splice(target, 0, moved!);
    return content;
  });
}
