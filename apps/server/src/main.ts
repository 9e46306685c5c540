// First: an unsupported Node.js stops here with a message, before a native module can crash it.
import './node-version.ts';
import { loadConfig, type Config } from './config.ts';
import { runCli } from './cli/cli.ts';

// An invalid setting stops the program with the message naming it (not a stack trace).
let config: Config | undefined;
try {
  config = loadConfig();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}

// The server is one program with roles (DESIGN.md §2): serve, worker, migrate, create-admin, …
if (config)
  runCli(process.argv.slice(2), config).then(
    (code) => {
      if (code !== undefined) process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
