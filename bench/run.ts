/**
 * Runs the benchmarks of DESIGN.md §11, one after another, and prints their figures and budgets:
 *
 *   npm run bench                      all of them
 *   npm run bench -- tiles             one (tiles, catalog-search, memory, reader, search, ocr, usage, hostile, load, mix), or several
 *   npm run bench -- --strict          exit 1 when a budget is missed
 *
 * Every result is also written as JSON under /tmp/guji-bench-results (BENCH_RESULTS_DIR to change).
 */
import { parseArgs } from 'node:util';
import {
  type BenchResult,
  formatTable,
  machine,
  printResult,
  stopAll,
  writeResult,
  RESULTS_DIR,
} from './lib.ts';
import { runTiles } from './tiles.ts';
import { runCatalogSearch } from './catalog-search.ts';
import { runMemory } from './memory.ts';
import { runReader } from './reader.ts';
import { runSearch } from './search.ts';
import { runOcr } from './ocr.ts';
import { runUsage } from './usage.ts';
import { runHostile } from './hostile.ts';
import { runLoad } from './load.ts';
import { runMix } from './mix.ts';

const BENCHMARKS: Record<string, () => Promise<BenchResult>> = {
  tiles: runTiles,
  'catalog-search': runCatalogSearch,
  memory: runMemory,
  reader: runReader,
  search: runSearch,
  ocr: runOcr,
  usage: runUsage,
  hostile: runHostile,
  load: runLoad,
  mix: runMix,
};
const ALIASES: Record<string, string> = {
  catalog: 'catalog-search',
  'full-text': 'search',
  tile: 'tiles',
};

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    strict: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log(`usage: npm run bench -- [${Object.keys(BENCHMARKS).join('|')} …] [--strict]`);
  process.exit(0);
}
const names = positionals.length > 0 ? positionals.map((n) => ALIASES[n] ?? n) : Object.keys(BENCHMARKS);
const unknown = names.filter((n) => !BENCHMARKS[n]);
if (unknown.length > 0) {
  console.error(`unknown benchmark: ${unknown.join(', ')}; known: ${Object.keys(BENCHMARKS).join(', ')}`);
  process.exit(2);
}

const m = machine();
console.log(
  `machine: ${m.cpus} × ${m.model}, ${m.memoryGb} GB, Node ${m.node}, load average ${m.loadAverage1m}`,
);
const results: BenchResult[] = [];
const failures: string[] = [];
for (const name of names) {
  try {
    const result = await BENCHMARKS[name]!();
    printResult(result);
    console.log(`results: ${writeResult(result)}`);
    results.push(result);
  } catch (error) {
    failures.push(name);
    console.error(
      `\n${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  } finally {
    await stopAll();
  }
}

console.log('\n== budgets (DESIGN.md §11) ==');
console.log(
  formatTable([
    ['', 'what', 'budget', 'measured'],
    ...results.flatMap((r) =>
      r.budgets.map((b) => [b.met === null ? 'n/a' : b.met ? 'met' : 'MISSED', b.what, b.budget, b.measured]),
    ),
  ]),
);
console.log(`\nJSON results in ${RESULTS_DIR}`);
const missed = results.some((r) => r.budgets.some((b) => b.met === false));
if (failures.length > 0) process.exitCode = 1;
else if (values.strict && missed) process.exitCode = 1;
