// Text from an MCP server's stderr goes into failure reasons and logs. It may echo what the server was given
// (a token in its env or args) or print credentials of its own; both are replaced before the text leaves.

/** Shapes of well-known credentials (GitHub, Slack, OpenAI/Anthropic-style keys, AWS, JWTs, bearer headers). */
const TOKEN_PATTERNS: readonly RegExp[] = [
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
  /\bxox[abprs]-[A-Za-z0-9-]{8,}/g,
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  // key=value / key: value where the key names a credential (the value is replaced, the key kept).
  /\b((?:api[_-]?key|access[_-]?token|auth[_-]?token|token|secret|password|passwd|client[_-]?secret)["']?\s*[=:]\s*["']?)[^\s"',;]{4,}/gi,
];

/** Values shorter than this are not treated as secrets (replacing "1" or "true" everywhere would garble text). */
const MIN_SECRET_LENGTH = 6;

export const REDACTED = '[redacted]';

/** Returns a function that replaces the given secret values and token-looking strings with `[redacted]`. */
export function createSecretRedactor(secrets: readonly string[] = []): (text: string) => string {
  const values = [...new Set(secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const value of values) out = out.split(value).join(REDACTED);
    for (const pattern of TOKEN_PATTERNS) {
      out = out.replace(pattern, (match, keyPart: unknown) => (typeof keyPart === 'string' && match.startsWith(keyPart) ? `${keyPart}${REDACTED}` : REDACTED));
    }
    return out;
  };
}
