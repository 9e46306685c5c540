/** The book the citation tests cite: a record with every field a citation carries. */
export const CITED_BOOK = {
  title: '論語集注',
  author: '朱熹',
  publishDynasty: '宋',
  coverageDynasty: '清同治十年金陵書局刻本',
  editionType: '刻本',
  callNumber: 'A-1',
} as const;

/** The public origin the citation tests' permalinks are made under. */
export const CITATION_ORIGIN = 'https://guji.example.org';
