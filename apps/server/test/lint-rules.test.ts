import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The folder rules of docs/architecture.md ("Which folder may import which") are kept by the linter:
 * each rule is tried here on a made file that breaks it (and on one that keeps it), so a change to
 * eslint.config.js that silently drops a rule fails. Only the structural rules run (no type information).
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const STRUCTURAL = new Set([
  'guji/route-imports',
  'guji/route-syntax',
  'guji/composition-root',
  'guji/migration-imports',
  'guji/feature-imports',
  'no-restricted-imports',
  '@typescript-eslint/no-restricted-imports',
  'no-restricted-syntax',
  'max-lines-per-function',
  'guji/web-data-layer',
  'guji/repository-writes',
]);
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
  ruleFilter: ({ ruleId }) => STRUCTURAL.has(ruleId),
});

/** The messages ESLint gives a file of this text at this path (relative to the repository). */
async function problems(file: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: path.join(ROOT, file) });
  return result!.messages.map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

describe('folder rules (eslint.config.js)', () => {
  it('a cross-cutting folder imports nothing from a feature, not even a type, nor the composition root', async () => {
    for (const folder of [
      'lib',
      'db',
      'http',
      'iiif',
      'ocr',
      'search',
      'storage',
      'backup',
      'audit',
      'jobs',
      'config',
    ]) {
      expect(
        await problems(
          `apps/server/src/${folder}/probe.ts`,
          "import { x } from '../features/catalog/catalog.service.ts';\nvoid x;\n",
        ),
      ).toEqual([expect.stringContaining('does not import a feature')]);
      expect(
        await problems(
          `apps/server/src/${folder}/probe.ts`,
          "import type { X } from '../features/a/b.ts';\nexport type Y = X;\n",
        ),
      ).toHaveLength(1);
      expect(
        await problems(
          `apps/server/src/${folder}/probe.ts`,
          "import { s } from '../wiring/services.ts';\nvoid s;\n",
        ),
      ).toHaveLength(1);
    }
    expect(
      await problems(
        'apps/server/src/config.ts',
        "import { x } from './features/print/alipay.ts';\nvoid x;\n",
      ),
    ).toHaveLength(1);
    // The context's type is the routes' plumbing (http/route-module.ts); its value is not.
    expect(
      await problems(
        'apps/server/src/http/probe.ts',
        "import type { AppContext } from '../context.ts';\nexport type C = AppContext;\n",
      ),
    ).toEqual([]);
    expect(
      await problems(
        'apps/server/src/http/probe.ts',
        "import { createContext } from '../context.ts';\nvoid createContext;\n",
      ),
    ).toHaveLength(1);
  });

  it('queries only in repositories, anywhere under src/ but the database, backup and text-index folders', async () => {
    const query = "export const q = (db: any) => db.selectFrom('books').selectAll().execute();\n";
    for (const file of [
      'features/catalog/probe.service.ts',
      'http/probe.ts',
      'lib/probe.ts',
      'jobs/probe.ts',
      'app.ts',
      'wiring/probe.ts',
    ])
      expect(await problems(`apps/server/src/${file}`, query), file).toEqual([
        expect.stringContaining('Queries belong in a repository'),
      ]);
    expect(
      await problems('apps/server/src/http/probe.ts', "import { Kysely } from 'kysely';\nvoid Kysely;\n"),
    ).toHaveLength(1);
    for (const file of [
      'features/catalog/probe.repository.ts',
      'db/probe.ts',
      'backup/probe.ts',
      'search/text-index.probe.ts',
    ])
      expect(await problems(`apps/server/src/${file}`, query), file).toEqual([]);
  });

  it('a write takes its transaction as a required argument, never one that falls back to the pool', async () => {
    const file = 'apps/server/src/features/catalog/probe.repository.ts';
    const cls = (method: string) =>
      `import { sql } from 'kysely';\nexport class P {\n  constructor(private readonly db: any) {}\n${method}\n}\n`;
    const forgotten = 'A write takes the transaction as a required `tx`';
    for (const body of [
      "await tx.updateTable('books').set({ title: 'x' }).execute();",
      "await tx.insertInto('books').values({}).execute();",
      "await tx.deleteFrom('books').execute();",
      'await sql`delete from books where id = ${1}`.execute(tx);',
      'await sql`UPDATE books SET title = ${1}`.execute(tx);',
    ]) {
      expect(await problems(file, cls(`  async w(tx: any = this.db) {\n    ${body}\n  }`))).toEqual([
        expect.stringContaining(forgotten),
      ]);
      expect(await problems(file, cls(`  async w(tx: any) {\n    ${body}\n  }`))).toEqual([]);
    }
    // Reads may default to the pool.
    expect(
      await problems(
        file,
        cls("  async r(tx: any = this.db) {\n    return tx.selectFrom('books').execute();\n  }"),
      ),
    ).toEqual([]);
  });

  it('a feature does not import the composition root', async () => {
    expect(
      await problems(
        'apps/server/src/features/print/probe.service.ts',
        "import { printServices } from '../../wiring/print.ts';\nvoid printServices;\n",
      ),
    ).toEqual([expect.stringContaining('does not import wiring/')]);
  });

  it('routes use services, never repositories', async () => {
    expect(
      await problems(
        'apps/server/src/features/catalog/probe.route.ts',
        "import { CatalogRepository } from './catalog.repository.ts';\nvoid CatalogRepository;\n",
      ),
    ).toEqual([expect.stringContaining('A route uses a service')]);
    expect(
      await problems(
        'apps/server/src/features/catalog/probe.route.ts',
        'export const f = (context: any) => context.repos.catalog;\n',
      ),
    ).toEqual([expect.stringContaining('A route uses a service')]);
    expect(
      await problems(
        'apps/server/src/features/catalog/probe.route.ts',
        'export const f = (context: any) => context.services.catalog;\n',
      ),
    ).toEqual([]);
  });

  it('services and repositories are made in the composition root only', async () => {
    const make = 'class CatalogService {}\nexport const s = new CatalogService();\n';
    expect(await problems('apps/server/src/features/catalog/probe.route.ts', make)).toEqual([
      expect.stringContaining('composition root'),
    ]);
    expect(
      await problems(
        'apps/server/src/features/print/probe.ts',
        'class PaymentRepository {}\nexport const r = new PaymentRepository();\n',
      ),
    ).toHaveLength(1);
    expect(await problems('apps/server/src/wiring/probe.ts', make)).toEqual([]);
  });

  it('a migration imports no live code', async () => {
    expect(
      await problems(
        'apps/server/src/db/migrations/9999_probe.ts',
        "import { fold } from '../../search/fold.ts';\nvoid fold;\n",
      ),
    ).toHaveLength(1);
    expect(
      await problems(
        'apps/server/src/db/migrations/9999_probe.ts',
        "import type { Db } from '../database.ts';\nexport type D = Db;\n",
      ),
    ).toEqual([]);
  });

  it('web: another feature, a page or a component reaches a feature through its index.ts, queries.ts or shell.ts only', async () => {
    const inside = "import { BookCard } from '../../catalog/components/book-card.tsx';\nvoid BookCard;\n";
    expect(await problems('apps/web/src/features/print/components/probe.tsx', inside)).toEqual([
      expect.stringContaining('index.ts, queries.ts or shell.ts'),
    ]);
    expect(
      await problems(
        'apps/web/src/features/catalog/components/probe.tsx',
        "import { BookCard } from './book-card.tsx';\nvoid BookCard;\n",
      ),
    ).toEqual([]);
    for (const feature of ['public-api', 'payment', 'admin'])
      expect(
        await problems(
          'apps/web/src/features/print/probe.ts',
          `import { x } from '../${feature}/pages/x.tsx';\nvoid x;\n`,
        ),
        feature,
      ).toHaveLength(1);
    expect(
      await problems(
        'apps/web/src/pages/probe.tsx',
        "import { BookCard } from '../features/catalog/components/book-card.tsx';\nvoid BookCard;\n",
      ),
    ).toHaveLength(1);
    expect(
      await problems(
        'apps/web/src/components/probe.tsx',
        "import { x } from '../features/reader/load-reader.ts';\nvoid x;\n",
      ),
    ).toHaveLength(1);
    expect(
      await problems(
        'apps/web/src/probe.tsx',
        "import { x } from './features/account/components/require-login.tsx';\nvoid x;\n",
      ),
    ).toHaveLength(1);
    for (const entry of ['index.ts', 'queries.ts', 'shell.ts', 'catalog.css'])
      expect(
        await problems('apps/web/src/pages/probe.tsx', `import '../features/catalog/${entry}';\n`),
        entry,
      ).toEqual([]);
  });

  it('a function is 80 lines at most, blank lines and comments aside, in the server, web, shared package and bench', async () => {
    const body = (lines: number) =>
      `export function probe(): number {\n  let n = 0;\n${'  n += 1;\n'.repeat(lines - 4)}  return n;\n}\n`;
    expect(await problems('apps/server/src/features/catalog/probe.ts', body(80))).toEqual([]);
    expect(await problems('apps/server/src/features/catalog/probe.ts', body(81))).toEqual([
      expect.stringContaining('max-lines-per-function'),
    ]);
    expect(await problems('packages/shared/src/probe.ts', body(81))).toHaveLength(1);
    expect(await problems('bench/probe.ts', body(81))).toHaveLength(1);
    expect(await problems('apps/web/src/features/catalog/probe.ts', body(81))).toHaveLength(1);
    const component = (lines: number) =>
      `export function Probe() {\n  return (\n    <ul>\n${'      <li>一</li>\n'.repeat(lines - 6)}    </ul>\n  );\n}\n`;
    expect(await problems('apps/web/src/features/catalog/probe.tsx', component(80))).toEqual([]);
    expect(await problems('apps/web/src/features/catalog/probe.tsx', component(81))).toEqual([
      expect.stringContaining('max-lines-per-function'),
    ]);
  });

  it("web: a feature's components call the API through its queries.ts, with named query keys", async () => {
    const component =
      "import { call } from '../../../api/client.ts';\nimport { auditApi } from '@guji/shared';\nexport const f = () => call(auditApi.list, {});\n";
    expect(await problems('apps/web/src/features/admin/components/probe.tsx', component)).toEqual([
      expect.stringContaining("feature's queries.ts"),
    ]);
    expect(
      await problems(
        'apps/web/src/features/admin/components/probe.tsx',
        "export const options = { queryKey: ['admin-probe'] };\n",
      ),
    ).toEqual([expect.stringContaining('Name the query key')]);
    expect(
      await problems(
        'apps/web/src/features/admin/queries.ts',
        component.replace('../../../api', '../../api') +
          "export const options = { queryKey: ['admin-probe'] };\n",
      ),
    ).toEqual([]);
  });

  it('web: the API through its contracts, never a path written by hand', async () => {
    expect(
      await problems('apps/web/src/features/print/probe.ts', "export const url = '/api/print/cart';\n"),
    ).toHaveLength(1);
  });
});
