// Text from an MCP server's stderr goes into failure reasons and logs. It may echo what the server was given
// (a token in its env or args) or print credentials of its own; both are replaced before the text leaves.
// Three nets, each catching what the others miss: the values the config passes (whatever their shape), any
// `NAME=value` / `NAME: value` whose name says it holds a credential (`DB_PASSWORD=`, `x-api-key:`), and the
// shapes of well-known credentials wherever they stand (a GitHub token, a bearer header, a JWT).

/** Words that make a name a credential's name, inside any longer name, in any case (`AWS_SECRET_ACCESS_KEY`). */
const CREDENTIAL_NAME_WORDS = ['TOKEN', 'SECRET', 'PASSWORD', 'PASSWD', 'KEY', 'CREDENTIAL', 'AUTH', 'COOKIE'] as const;

/** The characters of a name: letters, digits, `_`, `-` and `.` (`spring.datasource.password`, `x-api-key`). */
const NAME_CHAR = String.raw`[A-Za-z0-9_.\-]`;

/**
 * `NAME=value` or `NAME: value` where the name (possibly quoted, as in JSON) is one `name` matches: `head` is the
 * name and the separator (and a value's opening quote), which stay. A quoted value ends at its closing quote; an
 * unquoted one after `=` at the first blank, after `:` at the end of the line (`Cookie: a=1; b=2`,
 * `Authorization: Basic …`).
 */
function namedValuePattern(name: string, separators = '=:'): RegExp {
  const head = String.raw`(?<!${NAME_CHAR})(?<head>["']?${name}["']?[ \t]*[${separators}][ \t]*["']?)`;
  const value = String.raw`(?:(?<=")(?:[^"\\\r\n]|\\.)*|(?<=')(?:[^'\\\r\n]|\\.)*|(?<==[ \t]*)[^\s"']\S*|(?<=:[ \t]*)[^\s"'][^\r\n]*)`;
  return new RegExp(`${head}${value}`, 'gi');
}

/**
 * Any name with a credential word in it. The name is taken whole at once (a lookahead capture: JS has no atomic
 * groups), so a long run of name characters costs linear time, not a backtracking search.
 */
const CREDENTIAL_NAMED_VALUE = namedValuePattern(String.raw`(?=${NAME_CHAR}*?(?:${CREDENTIAL_NAME_WORDS.join('|')}))(?=(?<run>${NAME_CHAR}+))\k<run>`);

/** Shapes of well-known credentials (bearer and basic headers, GitHub, Slack, OpenAI/Anthropic-style keys, AWS, JWTs, URL passwords). */
const TOKEN_PATTERNS: readonly RegExp[] = [
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  // Basic credentials are base64: mixed case or a digit, `+`, `/` or `=` (so "Basic authentication" stays).
  /\bBasic\s+(?=[A-Za-z0-9+/]*(?:[0-9+/=]|[a-z][A-Z]))[A-Za-z0-9+/]{6,}={0,2}/g,
  /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
  /\bxox[abprs]-[A-Za-z0-9-]{8,}/g,
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  // scheme://user:password@host: the password goes, the rest stays.
  /(?<=[a-z][a-z0-9+.-]*:\/\/[^\s/:@]*:)[^\s/@]+(?=@)/gi,
];

/** Values shorter than this are not replaced wherever they appear (replacing "1" or "true" everywhere would garble text). */
const MIN_SECRET_LENGTH = 6;

export const REDACTED = '[redacted]';

/** What the config passes to one server, beyond its values: the names they are passed under (env variables, headers). */
export interface SecretRedactorOptions {
  /**
   * Names whose value is redacted after `NAME=` whatever the name says (an env variable `PIN`), however short the
   * value. Not after `NAME:`, where an env name like `DEBUG` would take ordinary lines with it.
   */
  names?: readonly string[] | undefined;
}

/**
 * Returns a function that replaces with `[redacted]`: the given secret values (6 characters or more) wherever they
 * appear, the value of every `NAME=value` / `NAME: value` whose name holds TOKEN, SECRET, PASSWORD, PASSWD, KEY,
 * CREDENTIAL, AUTH or COOKIE (any case), of every `NAME=value` whose name is one of `names`, and
 * credential-shaped strings.
 */
export function createSecretRedactor(secrets: readonly string[] = [], options: SecretRedactorOptions = {}): (text: string) => string {
  const values = [...new Set(secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
  const ownNames = [...new Set(options.names ?? [])].filter((name) => name.length > 0).map(escapeRegExp);
  // A passed name counts only whole (`PIN`, not `SPIN`): the run of name characters must be exactly it.
  const passedNamedValue = ownNames.length === 0 ? undefined : namedValuePattern(`(?:${ownNames.join('|')})(?!${NAME_CHAR})`, '=');
  const keepName = (...match: unknown[]) => `${(match.at(-1) as { head: string }).head}${REDACTED}`;
  return (text) => {
    let out = text;
    for (const value of values) out = out.split(value).join(REDACTED);
    // Shapes first: a bearer token inside `Authorization: Bearer …` goes whole, then the named value.
    for (const pattern of TOKEN_PATTERNS) out = out.replace(pattern, REDACTED);
    out = out.replace(CREDENTIAL_NAMED_VALUE, keepName);
    if (passedNamedValue !== undefined) out = out.replace(passedNamedValue, keepName);
    return out;
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
