/** The first leaf of a demo book's first volume, typeset with its text known (the OCR tests' page). */
import { loadDemoBooks } from '../src/demo/books.ts';
import { CLASSICS_DIR } from '../src/demo/demo.ts';
import { loadGlyphs } from '../src/demo/fonts.ts';
import { layoutVolume } from '../src/demo/layout.ts';
import { leafCharacters, renderLeaf } from '../src/demo/render.ts';

export async function demoLeaf(bookKey: string, seed: number): ReturnType<typeof renderLeaf> {
  const book = loadDemoBooks(CLASSICS_DIR).find((b) => b.key === bookKey)!;
  const volume = book.volumes[0]!;
  const leaf = layoutVolume(volume.chapters).leaves[0]!;
  const glyphs = await loadGlyphs(leafCharacters(leaf, book.title, volume.name));
  return renderLeaf(leaf, { bookTitle: book.title, volumeName: volume.name, glyphs, seed });
}
