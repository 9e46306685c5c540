import fs from 'node:fs';
import path from 'node:path';
import { randomToken } from './crypto.ts';

/** The signing secret: SESSION_SECRET, or one generated once and kept in DATA_DIR. */
export function resolveSecret(config: { sessionSecret?: string | null; dataDir: string }): string {
  if (config.sessionSecret) return config.sessionSecret;
  const file = path.join(config.dataDir, '.session-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(config.dataDir, { recursive: true });
    const secret = randomToken();
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}
