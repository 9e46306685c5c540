/**
 * The distinct characters and pairs of neighbouring characters of a page's tokens: its lexemes. The same
 * as the database function `guji_text_grams` (migration 0020, which fills existing rows), made here because
 * that is a quarter of the cost of indexing a page.
 */
export function textGrams(tokens: string[]): string[] {
  const grams = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    grams.add(tokens[i]!);
    if (i + 1 < tokens.length) grams.add(tokens[i]! + tokens[i + 1]!);
  }
  return [...grams];
}
