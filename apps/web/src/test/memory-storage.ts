/** A Storage stand-in for tests of what the web app keeps in localStorage; `values` shows what was kept. */
export function memoryStorage() {
  const values = new Map<string, string>();
  return {
    values,
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
  };
}
