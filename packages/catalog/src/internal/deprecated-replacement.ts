// deprecatedReplacement: the tool a deprecated tool names as its replacement ("DEPRECATED: Use read_text_file
// instead"). The ranking puts that replacement just above the deprecated tool whenever the deprecated one is
// among the hits, so a model calls what the server wants called.

/** "deprecated" said of the tool itself (not a tool that lists deprecated things). */
const DEPRECATED = /(?:^|[.!?:;([\n]\s*)deprecated\b|\b(?:is|now|been|tool)\s+deprecated\b|\bdeprecated\s+(?:in\s+favou?r\s+of|since|use)\b/i;
/** The replacement it names: "use X instead", "in favour of X", "replaced by X", "use X". */
const REPLACEMENT = /\b(?:use\s+[`'"]?([\w.-]+)[`'"]?\s+instead|in\s+favou?r\s+of\s+[`'"]?([\w.-]+)|replaced\s+by\s+[`'"]?([\w.-]+)|deprecated[^.]{0,40}?\buse\s+[`'"]?([\w.-]+))/i;

/** The name of the tool a description says replaces it, when it says it is deprecated; undefined otherwise. */
export function deprecatedReplacement(description: string, name: string): string | undefined {
  const text = description.slice(0, 2_000);
  if (!DEPRECATED.test(text)) return undefined;
  const match = REPLACEMENT.exec(text);
  const replacement = match?.slice(1).find((group) => group !== undefined)?.replace(/[.]+$/, '');
  return replacement === undefined || replacement === name ? undefined : replacement;
}
