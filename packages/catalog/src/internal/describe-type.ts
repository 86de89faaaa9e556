// describeType: how an error message names a value of the wrong type, without echoing the value.

/** `null`, `an array`, or the `typeof` of `value`. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
