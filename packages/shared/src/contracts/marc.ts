import { CatalogIdParams } from '../api/catalog.ts';
import { MarcExportQuery, MarcImported, MarcImportQuery, MarcPreview } from '../api/marc.ts';
import { contract } from '../contract.ts';

const tags = ['marc'];

/** MARC in and out (issue 18): catalogue records from MARC21 and CNMARC files, MARCXML of books. */
export const marcApi = {
  preview: contract({
    method: 'POST',
    path: '/api/admin/marc/preview',
    summary:
      'What importing a MARC file (ISO 2709 or MARCXML, field `file`) would do, record by record, without writing (catalogue staff)',
    tags,
    query: MarcImportQuery,
    multipart: true,
    response: MarcPreview,
  }),
  import: contract({
    method: 'POST',
    path: '/api/admin/marc/import',
    summary:
      'Import a MARC file’s records as catalogue records: all or nothing, a record in error changes nothing (catalogue staff)',
    tags,
    query: MarcImportQuery,
    multipart: true,
    response: MarcImported,
  }),
  book: contract({
    method: 'GET',
    path: '/api/books/:catalogId/marcxml',
    summary: 'A book’s catalogue record as MARCXML (MARC21 or CNMARC), for whoever may see the book',
    tags,
    params: CatalogIdParams,
    query: MarcExportQuery,
    response: null,
  }),
  catalogue: contract({
    method: 'GET',
    path: '/api/marcxml',
    summary:
      'The catalogue as one MARCXML collection, streamed: the public books, and for catalogue staff the hidden ones too',
    tags,
    query: MarcExportQuery,
    response: null,
  }),
};
