/**
 * Text and attribute values for XML we write (OAI-PMH, MARCXML, ALTO, hOCR): the five markup characters
 * escaped, and the characters XML 1.0 cannot hold at all (C0 controls other than tab and line breaks,
 * lone surrogates, U+FFFE/U+FFFF) left out, so data typed or imported with them never breaks a document.
 */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
