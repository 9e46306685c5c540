/**
 * A chapter of a volume's text: its title and its paragraphs, with modern punctuation. In a paragraph,
 * text between 〔 and 〕 is a double-line small note (雙行小注).
 */
export interface LayoutChapter {
  title: string;
  paragraphs: string[];
}

export interface LayoutOptions {
  /** Columns in each half-page (default 9). */
  columnsPerHalf?: number;
  /** Characters in a full column (default 18). */
  charsPerColumn?: number;
  /** Blank cells above a chapter title (default 1). */
  titleIndent?: number;
  /** Characters the font lacks: left out of the printed text and reported in `omitted`. */
  omitChars?: Iterable<string>;
}

/** One printed column of a leaf. */
export interface LeafColumn {
  /** Position on the leaf in reading order: 0 is the rightmost column of the right half. */
  index: number;
  /**
   * The characters in reading order, after the indent: main text one to a cell, at most
   * `charsPerColumn - indent` of them; a double-line note fills half-cell rows of two small characters,
   * its first half down the right line and its second half down the left line.
   */
  text: string;
  /** The double-line notes in `text`, as code-point offsets; absent when there are none. */
  notes?: Array<{ start: number; length: number }>;
  /** A chapter title column. */
  isTitle: boolean;
  /** Blank cells above the text. */
  indent: number;
}

/**
 * One leaf (葉): a printed sheet laid flat, right half-page, centre strip (版心), left half-page.
 * Columns 0..columnsPerHalf-1 are the right half from right to left, the rest the left half.
 */
export interface Leaf {
  /** 1-based, as printed in the centre strip. */
  leafNumber: number;
  columnsPerHalf: number;
  charsPerColumn: number;
  /** Columns that hold text, in reading order; columns after the last one are blank. */
  columns: LeafColumn[];
}

/** Where a chapter starts. */
export interface LeafDirectoryEntry {
  name: string;
  /** 0-based index into `VolumeLayout.leaves`. */
  leafIndex: number;
  /** 1-based leaf number (leafIndex + 1). */
  leafNumber: number;
}

export interface VolumeLayout {
  leaves: Leaf[];
  /** One entry per chapter, in order. */
  directory: LeafDirectoryEntry[];
  /** Distinct characters left out because of `omitChars`, in first-seen order. */
  omitted: string[];
}

const PUNCTUATION_OR_SPACE = /[\p{P}\s]/gu;

/**
 * The text as a woodblock prints it: modern punctuation (，。；：、？！「」『』《》 …) and
 * whitespace removed, every other character kept in order.
 */
export function stripPunctuation(text: string): string {
  return text.replace(PUNCTUATION_OR_SPACE, '');
}

/**
 * Lays out a volume's chapters on leaves: text runs top to bottom in columns, columns right to left,
 * starting in the right half. Each chapter starts a new column with its title column (indented);
 * each paragraph starts a new column. Pure: the same input gives the same leaves.
 */
export function layoutVolume(chapters: readonly LayoutChapter[], options: LayoutOptions = {}): VolumeLayout {
  const columnsPerHalf = options.columnsPerHalf ?? 9;
  const charsPerColumn = options.charsPerColumn ?? 18;
  const titleIndent = options.titleIndent ?? 1;
  if (!Number.isInteger(columnsPerHalf) || columnsPerHalf < 1)
    throw new RangeError('columnsPerHalf must be ≥ 1');
  if (!Number.isInteger(charsPerColumn) || charsPerColumn < 2)
    throw new RangeError('charsPerColumn must be ≥ 2');
  if (!Number.isInteger(titleIndent) || titleIndent < 0 || titleIndent >= charsPerColumn) {
    throw new RangeError('titleIndent must be in [0, charsPerColumn)');
  }
  const omit = new Set<string>();
  for (const text of options.omitChars ?? []) for (const ch of text) omit.add(ch);
  const omitted: string[] = [];
  const printable = (text: string): string[] =>
    [...stripPunctuation(text)].filter((ch) => {
      if (!omit.has(ch)) return true;
      if (!omitted.includes(ch)) omitted.push(ch);
      return false;
    });
  /** Main text and notes of a paragraph, in order. */
  const pieces = (text: string): Piece[] =>
    text
      .split(/(〔[^〔〕]*〕)/u)
      .map((part) =>
        part.startsWith('〔')
          ? { chars: printable(part), note: true }
          : { chars: printable(part), note: false },
      )
      .filter((piece) => piece.chars.length > 0);

  const columnsPerLeaf = columnsPerHalf * 2;
  const columns: Omit<LeafColumn, 'index'>[] = [];
  const directory: LeafDirectoryEntry[] = [];
  const pushRun = (run: Piece[], isTitle: boolean, indent: number) =>
    fillColumns(columns, run, isTitle, 2 * (charsPerColumn - indent), indent);

  for (const chapter of chapters) {
    const leafIndex = Math.floor(columns.length / columnsPerLeaf);
    directory.push({ name: chapter.title, leafIndex, leafNumber: leafIndex + 1 });
    pushRun([{ chars: printable(chapter.title), note: false }], true, titleIndent);
    for (const paragraph of chapter.paragraphs) pushRun(pieces(paragraph), false, 0);
  }

  const leaves: Leaf[] = [];
  for (let start = 0; start < columns.length; start += columnsPerLeaf) {
    leaves.push({
      leafNumber: leaves.length + 1,
      columnsPerHalf,
      charsPerColumn,
      columns: columns.slice(start, start + columnsPerLeaf).map((c, index) => ({ ...c, index })),
    });
  }
  // A chapter with no printable text at the very end points at the last leaf, not past it.
  const lastLeaf = Math.max(leaves.length - 1, 0);
  for (const entry of directory) {
    if (entry.leafIndex > lastLeaf) Object.assign(entry, { leafIndex: lastLeaf, leafNumber: lastLeaf + 1 });
  }
  return { leaves, directory, omitted };
}

/** The printed text of a leaf in reading order, one string per column. */
export function leafText(leaf: Leaf): string {
  return leaf.columns.map((c) => c.text).join('');
}

/** A run of a paragraph or a title: main text and notes, in order. */
type Piece = { chars: string[]; note: boolean };

/**
 * Fills columns of `room` half-cells with a run: a main character takes two half-cells, a row of a note
 * (two characters side by side) one.
 */
function fillColumns(
  columns: Omit<LeafColumn, 'index'>[],
  run: Piece[],
  isTitle: boolean,
  room: number,
  indent: number,
): void {
  let chars: string[] = [];
  let notes: Array<{ start: number; length: number }> = [];
  let used = 0;
  const flush = () => {
    if (chars.length === 0) return;
    columns.push({ text: chars.join(''), isTitle, indent, ...(notes.length > 0 ? { notes } : {}) });
    chars = [];
    notes = [];
    used = 0;
  };
  for (const piece of run) {
    if (!piece.note) {
      for (const ch of piece.chars) {
        if (used + 2 > room) flush();
        chars.push(ch);
        used += 2;
      }
      continue;
    }
    let rest = piece.chars;
    while (rest.length > 0) {
      if (used >= room) flush();
      const rows = Math.min(Math.ceil(rest.length / 2), room - used);
      const placed = rest.slice(0, 2 * rows);
      notes.push({ start: chars.length, length: placed.length });
      chars.push(...placed);
      used += Math.ceil(placed.length / 2);
      rest = rest.slice(placed.length);
    }
  }
  flush();
}
