/** onnxruntime-node, loaded when an engine is made (it holds native memory), not with the server. */
export async function loadOrt(): Promise<typeof import('onnxruntime-node')> {
  // Node's ESM loader puts the CommonJS exports on `default`; tsx, when a caller outside the server
  // package loads this file (the benchmarks), hands over the exports themselves.
  const loaded: Partial<typeof import('onnxruntime-node')> & {
    default?: typeof import('onnxruntime-node');
  } = await import('onnxruntime-node');
  return loaded.InferenceSession ? (loaded as typeof import('onnxruntime-node')) : loaded.default!;
}
