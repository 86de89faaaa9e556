/**
 * A model's tool-call arguments as an object: an object as it is, JSON text parsed, nothing (`undefined`,
 * `null`, `''`) as `{}`. Anything else (an array, a number, text that is not a JSON object) is `undefined`.
 */
export function parseCallArgs(args: unknown): Record<string, unknown> | undefined {
  if (args === undefined || args === null || args === '') return {};
  let value = args;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
