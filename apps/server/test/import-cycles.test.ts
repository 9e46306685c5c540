import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Issue 33 part 1: no value-import cycles in the server, the web app or the shared package. A cycle makes
 * the order modules run in depend on which is imported first (a constant read before it is set), and ties
 * folders together that docs/architecture.md keeps apart. Type-only imports vanish at build time and are
 * not counted; dynamic `import()` (lazy screens) is not either. Tests are left out.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const TREES = ['apps/server/src', 'apps/web/src', 'packages/shared/src'];

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The files of the tree a module imports at run time (relative specifiers only). */
function valueImports(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const targets: string[] = [];
  for (const statement of source.statements) {
    let specifier: ts.Expression | undefined;
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const bindings = clause?.namedBindings;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (!clause.name &&
            bindings !== undefined &&
            ts.isNamedImports(bindings) &&
            bindings.elements.length > 0 &&
            bindings.elements.every((element) => element.isTypeOnly)));
      if (!typeOnly) specifier = statement.moduleSpecifier;
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) {
      specifier = statement.moduleSpecifier;
    }
    if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith('.'))
      targets.push(path.resolve(path.dirname(file), specifier.text));
  }
  return targets;
}

/** The groups of files that import each other in a circle (Tarjan's strongly connected components). */
function cycles(files: string[]): string[][] {
  const graph = new Map(files.map((file) => [file, valueImports(file).filter((to) => files.includes(to))]));
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    order.set(file, order.size);
    low.set(file, order.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file)!) {
      if (!order.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, order.get(next)!));
    }
    if (low.get(file) !== order.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(path.relative(ROOT, member));
    } while (member !== file);
    if (group.length > 1 || graph.get(file)!.includes(file)) found.push(group.sort());
  };
  for (const file of files) if (!order.has(file)) visit(file);
  return found;
}

describe('modules', () => {
  it.each(TREES)('of %s import each other in no circle', (tree) => {
    expect(cycles(sources(path.join(ROOT, tree)))).toEqual([]);
  });

  it('a circle is found where there is one (the check itself)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guji-cycle-'));
    try {
      fs.writeFileSync(path.join(dir, 'a.ts'), "import { b } from './b.ts';\nexport const a = () => b;\n");
      fs.writeFileSync(path.join(dir, 'b.ts'), "import { a } from './a.ts';\nexport const b = () => a;\n");
      fs.writeFileSync(path.join(dir, 'c.ts'), "import type { A } from './d.ts';\nexport const c: A = 1;\n");
      fs.writeFileSync(path.join(dir, 'd.ts'), "import { c } from './c.ts';\nexport type A = typeof c;\n");
      const found = cycles(sources(dir));
      expect(found).toEqual([
        [path.relative(ROOT, path.join(dir, 'a.ts')), path.relative(ROOT, path.join(dir, 'b.ts'))],
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
