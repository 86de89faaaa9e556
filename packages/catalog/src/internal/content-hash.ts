// SHA-256 of a text, hex, through Web Crypto (present in Node 20 and browsers): the key of a cached vector.

const encoder = new TextEncoder();

/** The lower-case hex SHA-256 of `text` (UTF-8). */
export async function contentHash(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', encoder.encode(text));
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
