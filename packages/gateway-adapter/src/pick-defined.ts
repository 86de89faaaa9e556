// The one copy of a small rule gateway-adapter and mcp-server both follow under exactOptionalPropertyTypes: an option
// that is not set is left out, never forwarded as `undefined`.

/** The named keys of `source` whose values are defined (so optional options are forwarded only when set). */
export function pickDefined<T extends object, K extends keyof T>(source: T, keys: readonly K[]): { [P in K]?: Exclude<T[P], undefined> } {
  const picked: { [P in K]?: Exclude<T[P], undefined> } = {};
  for (const key of keys) {
    const value = source[key];
    if (value !== undefined) picked[key] = value as Exclude<T[K], undefined>;
  }
  return picked;
}
