/**
 * Refuses to start on a Node.js older than the one package.json's `engines` names, before any native
 * module loads: better-sqlite3's build for newer Node crashes Node 20 outright (a segmentation fault
 * at start-up, no message), which says nothing to the person who ran the command.
 */
export const MIN_NODE_MAJOR = 22;

export function nodeVersionProblem(version: string): string | undefined {
  const major = Number(version.split('.')[0]);
  if (major >= MIN_NODE_MAJOR) return undefined;
  return `需要 Node.js ${MIN_NODE_MAJOR} 或更新版本，当前是 ${version}（Node.js ${MIN_NODE_MAJOR}+ is required; this is ${version}）`;
}

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  console.error(problem);
  process.exit(1);
}
