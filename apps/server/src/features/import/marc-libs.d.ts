/** Types of the two MARC libraries as this feature uses them (neither ships its own). */

declare module '@natlibfi/marc-record' {
  export interface MarcSubfield {
    code: string;
    value?: string;
  }
  export interface MarcControlField {
    tag: string;
    value: string;
  }
  export interface MarcDataField {
    tag: string;
    ind1: string;
    ind2: string;
    subfields: MarcSubfield[];
  }
  export type MarcField = MarcControlField | MarcDataField;
  export interface MarcValidationOptions {
    fields?: boolean;
    subfields?: boolean;
    subfieldValues?: boolean;
    noControlCharacters?: boolean;
    noFailValidation?: boolean;
  }
  export class MarcRecord {
    constructor(record?: { leader: string; fields: MarcField[] }, validationOptions?: MarcValidationOptions);
    leader: string;
    fields: MarcField[];
    getControlfields(): MarcControlField[];
    getDatafields(): MarcDataField[];
    appendField(field: MarcField): void;
    toObject(): { leader: string; fields: MarcField[] };
  }
}

declare module '@natlibfi/marc-record-serializers' {
  import type { MarcRecord, MarcValidationOptions } from '@natlibfi/marc-record';
  export const MARCXML: {
    to(record: MarcRecord, options?: { omitDeclaration?: boolean; indent?: boolean }): string;
    from(xml: string, validationOptions?: MarcValidationOptions): Promise<MarcRecord>;
  };
}

declare module 'marcjs' {
  /** A field: [tag, value] for a control field, [tag, indicators, code, value, code, value, …] otherwise. */
  type MarcjsField = string[];
  class Record {
    leader: string;
    fields: MarcjsField[];
  }
  const marcjs: {
    Record: typeof Record;
    Marc: {
      parse(raw: Buffer, type: 'iso2709'): Record;
      format(record: Record, type: 'Iso2709'): string;
    };
  };
  export default marcjs;
}
