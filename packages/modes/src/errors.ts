// The one error class of @tool-search/modes. Rendering is pure: every error here is a broken contract in
// the caller's input (bad options, a name clash that would make a tool call ambiguous), never an expected
// outcome.
import { createErrorGuard, ToolSearchErrorBase } from '@tool-search/error-base';

/** One validation problem: where (`directory.maxChars`) and what. A failed validation's `cause` is a list of these. */
export interface ModesErrorIssue {
  path: string;
  message: string;
}

/** The closed set of codes a `ModesError` carries. */
export type ModesErrorCode =
  /** `renderSurface` options failed validation (wrong type, unknown key, limits out of order). */
  | 'invalid_options'
  /** A client tool has the same name as a catalog tool (a direct call by that name would be ambiguous). */
  | 'client_tool_collision'
  /** Two directly visible tools (visible or client) share a name. */
  | 'duplicate_tool_name'
  /** A visible or client tool uses a control tool's name (`tool_search_code`, `tool_search`, ...). */
  | 'reserved_tool_name'
  /** A provider converter was handed a tool whose name that provider does not accept. */
  | 'invalid_tool_name'
  /** A native-mode surface (or one of its tools) was handed to a format it was not rendered for. */
  | 'format_mismatch'
  /** A tool result renderer was handed a result that is not `{ text, parts?, structured?, isError? }` with valid parts. */
  | 'invalid_tool_result';

/**
 * Thrown by `renderSurface`, the provider converters and the result renderers on broken contracts. When
 * validation failed, `cause` is the list of problems as plain `ModesErrorIssue`s (never a `ZodError`). `path` is
 * where in the options the problem is (`directory.maxChars`, `clientTools[2].name`), when known.
 */
export class ModesError extends ToolSearchErrorBase<ModesErrorCode> {
  /** The tool ids involved, when the error is about tools (both ids for a collision). */
  readonly toolIds: readonly string[];

  constructor(
    code: ModesErrorCode,
    message: string,
    options?: { cause?: unknown; toolIds?: readonly string[]; path?: string },
  ) {
    super('ModesError', code, message, options);
    this.toolIds = options?.toolIds ?? [];
  }
}

/** True when `value` is a `ModesError`, across package copies (brand check, not `instanceof`). */
export const isModesError = createErrorGuard<ModesError>('ModesError');
