import { loadConfig } from './config.ts';
import { runCli } from './cli/cli.ts';

// The server is one program with roles (DESIGN.md §2): serve, worker, migrate, create-admin, …
runCli(process.argv.slice(2), loadConfig()).then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
