// What one session declares to the model, re-rendered when the host's catalog changes, and the names it has
// ever declared (so a name from an earlier surface keeps reaching its tool, or says it went away).
import { renderSurface, type DirectoryOptions, type Mode, type Surface, type SurfaceLimits } from '@tool-search/modes';
import type { AllowedTools } from './allowed-tools.js';

export interface SessionSurface {
  /** The surface for the host's current catalog (cached until it changes). */
  current(): Surface;
  /** The id a declared name maps to: on the current surface, or on an earlier one while its tool is still known. */
  declaredId(name: string): string | undefined;
}

/** Surfaces kept per view; each is a pure function of the view's tools and the key's inputs. */
const MAX_MEMO_ENTRIES = 16;

export function createSessionSurface(options: {
  mode: Mode;
  tools: AllowedTools;
  version: () => number;
  limits: SurfaceLimits;
  directory: DirectoryOptions;
  /** Shared by the sessions of one view, so sessions that would render the same surface render it once. */
  memo: Map<string, { version: number; surface: Surface }>;
}): SessionSurface {
  const { tools } = options;
  let rendered: { version: number; surface: Surface; byName: Map<string, string> } | undefined;
  /** Every name ever declared, so a call to a tool that went away since says so instead of "unknown". */
  const declaredEver = new Map<string, string>();

  const render = () => {
    const version = options.version();
    if (rendered && rendered.version === version) return rendered;
    const inputs = { mode: options.mode, visible: tools.pinnedInputs(), clientTools: tools.clientInputs(), limits: options.limits, directory: options.directory };
    const key = JSON.stringify(inputs);
    const memoized = options.memo.get(key);
    let surface: Surface;
    if (memoized !== undefined && memoized.version === version) {
      surface = memoized.surface;
      options.memo.delete(key);
    } else {
      surface = renderSurface({ ...inputs, catalog: tools.view });
      if (options.memo.size >= MAX_MEMO_ENTRIES) options.memo.delete(options.memo.keys().next().value as string);
    }
    options.memo.set(key, { version, surface });
    const byName = new Map<string, string>();
    for (const tool of surface.tools) {
      if (tool.id === undefined) continue;
      byName.set(tool.name, tool.id);
      declaredEver.set(tool.name, tool.id);
    }
    rendered = { version, surface, byName };
    return rendered;
  };

  return {
    current: () => render().surface,
    declaredId(name) {
      const current = render().byName.get(name);
      if (current !== undefined) return current;
      // A name from an earlier surface keeps mapping to the tool it was declared for: that tool may have gone
      // away (the call then fails as unavailable) or be declared under another name now (a name shared by two
      // owners is qualified, and unqualified again once one of them goes). Either way the pipeline gates it.
      const earlier = declaredEver.get(name);
      return earlier !== undefined && (tools.get(earlier) !== undefined || tools.unavailable(earlier) !== undefined) ? earlier : undefined;
    },
  };
}
