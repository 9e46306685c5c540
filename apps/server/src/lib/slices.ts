/**
 * Long work on the event loop's thread in slices: `const pause = slicer(); for (…) { await pause(); … }`
 * gives other requests a turn whenever the work has held the thread for `ms` milliseconds.
 */
export function slicer(ms = 20): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < ms) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    since = performance.now();
  };
}
