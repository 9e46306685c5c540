import {
  AliasNode,
  DeleteQueryNode,
  InsertQueryNode,
  MergeQueryNode,
  TableNode,
  UpdateQueryNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

/**
 * A count of the changes this process makes to some tables, for rows of them kept between requests
 * (features/iiif/iiif-catalog.service.ts keeps public pages and their books): a row kept under an
 * older count is read again. The count moves when a statement inserts, updates or deletes rows of a
 * watched table, and when a transaction ends (a read made while it was open may have seen rows it was
 * changing). Changes made by other processes are not seen here: what is kept also expires by time.
 */
export class TableWrites implements KyselyPlugin {
  private count = 0;

  constructor(private readonly tables: ReadonlySet<string>) {}

  /** Changes so far; compare the value read before a lookup with the value now. */
  get generation(): number {
    return this.count;
  }

  /** A transaction of this process ended (committed or rolled back). */
  transactionEnded(): void {
    this.count++;
  }

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (writtenTables(node).some((table) => this.tables.has(table))) this.count++;
    return node;
  }

  transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(result);
  }
}

/**
 * The tables an insert, update, delete or merge writes (none for anything else). Raw SQL is not read:
 * only migrations write the catalogue's tables that way, before any request.
 */
function writtenTables(node: RootOperationNode): string[] {
  if (InsertQueryNode.is(node)) return tableNames(node.into);
  if (UpdateQueryNode.is(node)) return tableNames(node.table);
  if (DeleteQueryNode.is(node)) return node.from.froms.flatMap(tableNames);
  if (MergeQueryNode.is(node)) return tableNames(node.into);
  return [];
}

/** A table reference's name: a table, or an aliased one. */
function tableNames(node: OperationNode | undefined): string[] {
  if (!node) return [];
  if (TableNode.is(node)) return [node.table.identifier.name];
  if (AliasNode.is(node)) return tableNames(node.node);
  return [];
}
