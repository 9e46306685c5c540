/** Types of the parts of Citation.js the citation tests use (the packages ship none). */
declare module '@citation-js/core' {
  export class Cite {
    constructor(data: unknown, options?: { forceType?: string });
    data: Array<Record<string, unknown>>;
  }
}
declare module '@citation-js/plugin-bibtex';
declare module '@citation-js/plugin-ris';
