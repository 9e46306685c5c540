import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 15: no source file in apps/ over 400 lines (except the database schema's table types), so a
 * newcomer finds a feature's route, rule, query and test in files small enough to read whole.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const LIMIT = 400;
const ALLOWED = new Set(['apps/server/src/db/schema.ts']);

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'dist'].includes(entry.name) ? [] : sources(full);
    return /\.(ts|tsx|css)$/.test(entry.name) ? [full] : [];
  });
}

describe('source files', () => {
  it(`stay under ${LIMIT} lines`, () => {
    const long = sources(path.join(ROOT, 'apps'))
      .map((file) => ({
        file: path.relative(ROOT, file),
        lines: fs.readFileSync(file, 'utf8').split('\n').length - 1,
      }))
      .filter(({ file, lines }) => lines > LIMIT && !ALLOWED.has(file));
    expect(long).toEqual([]);
  });
});
