import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const here = path.dirname(new URL(import.meta.url).pathname);
const sheetsOf = (file: string) =>
  [...fs.readFileSync(file, 'utf8').matchAll(/^import '([^']+\.css)';/gm)].map((m) =>
    path.resolve(path.dirname(file), m[1]!),
  );

/**
 * The feature modules are marked free of side effects (package.json `sideEffects`), so a screen loads
 * only the parts of another feature it uses (issue 32 part 4). A feature index that is not used is then
 * left out, and the style sheets it imports with it: every one of them is imported by main.tsx too.
 */
describe('feature style sheets', () => {
  it('are all imported by main.tsx, whatever a screen imports', () => {
    const main = new Set(sheetsOf(path.join(here, 'main.tsx')));
    const features = path.join(here, 'features');
    const missing = fs
      .readdirSync(features)
      .map((name) => path.join(features, name, 'index.ts'))
      .filter((index) => fs.existsSync(index))
      .flatMap(sheetsOf)
      .filter((sheet) => !main.has(sheet))
      .map((sheet) => path.relative(here, sheet));
    expect(missing).toEqual([]);
  });
});
