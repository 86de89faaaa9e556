// What one session declares to the model, re-rendered when the host's catalog changes, and the names it has
// ever declared (so a name from an earlier surface keeps reaching its tool, or says it went away). Native mode
// renders per provider format (each provider defers tools its own way); the other modes render once.
import { renderSurface, withLoadedTools, type DirectoryOptions, type Mode, type NativeOptions, type Surface, type SurfaceFormat, type SurfaceLimits } from '@tool-search/modes';
import type { AllowedTools } from './allowed-tools.js';

export interface SessionSurface {
  /**
   * The surface for the host's current catalog (cached until it changes); native mode needs the format. Native
   * mode on OpenAI Chat with chat loading declares the tools its searches loaded after its own (`withLoadedTools`).
   */
  current(format?: SurfaceFormat): Surface;
  /** The surface as rendered, every deferred tool still in it (what a native search answer is cut from). */
  rendered(format?: SurfaceFormat): Surface;
  /** The id a declared name maps to: on a current surface, or on an earlier one while its tool is still known. */
  declaredId(name: string): string | undefined;
}

/** Surfaces kept per view; each is a pure function of the view's tools and the key's inputs. */
const MAX_MEMO_ENTRIES = 16;
/** The format a native surface is rendered for when a caller routes a name before asking for any surface. */
const DEFAULT_NATIVE_FORMAT: SurfaceFormat = 'openai-responses';

/** What a session's surface is rendered from. */
export interface SessionSurfaceOptions {
  mode: Mode;
  tools: AllowedTools;
  version: () => number;
  limits: SurfaceLimits;
  directory: DirectoryOptions;
  native: NativeOptions;
  /** Shared by the sessions of one view, so sessions that would render the same surface render it once. */
  memo: Map<string, { version: number; surface: Surface }>;
  /** True while servers are still starting (the instructions then give no count). Default: never. */
  catalogStarting?: () => boolean;
  /** Native mode: the ids a format's searches have loaded, oldest first (OpenAI Chat declares them). */
  loaded?: (format: SurfaceFormat) => Iterable<string>;
}

export function createSessionSurface(options: SessionSurfaceOptions): SessionSurface {
  const { tools } = options;
  const rendered = new Map<string, { version: number; starting: boolean; surface: Surface; byName: Map<string, string> }>();
  /** Every name ever declared, so a call to a tool that went away since says so instead of "unknown". */
  const declaredEver = new Map<string, string>();

  const render = (format: SurfaceFormat | undefined) => {
    const key = options.mode === 'native' ? (format ?? DEFAULT_NATIVE_FORMAT) : '';
    const version = options.version();
    const starting = options.catalogStarting?.() === true;
    const cached = rendered.get(key);
    if (cached && cached.version === version && cached.starting === starting) return cached;
    const surface = renderMemoized(options, key, version, starting);
    const byName = new Map<string, string>();
    for (const tool of surface.tools) {
      if (tool.id === undefined) continue;
      byName.set(tool.name, tool.id);
      declaredEver.set(tool.name, tool.id);
    }
    const entry = { version, starting, surface, byName };
    rendered.set(key, entry);
    return entry;
  };

  return {
    current(format) {
      const surface = render(format).surface;
      // Chat has no deferral: the tools a search loaded are declared as plain functions, after the surface's own.
      if (surface.mode !== 'native' || surface.format !== 'openai-chat') return surface;
      return { ...surface, tools: withLoadedTools(surface, options.loaded?.('openai-chat') ?? []) };
    },
    rendered: (format) => render(format).surface,
    declaredId(name) {
      if (rendered.size === 0) render(undefined);
      for (const entry of rendered.values()) {
        if (entry.version !== options.version()) continue;
        const current = entry.byName.get(name);
        if (current !== undefined) return current;
      }
      const current = render(undefined).byName.get(name);
      if (current !== undefined) return current;
      // A name from an earlier surface keeps mapping to the tool it was declared for: that tool may have gone
      // away (the call then fails as unavailable) or be declared under another name now (a name shared by two
      // owners is qualified, and unqualified again once one of them goes). Either way the pipeline gates it.
      const earlier = declaredEver.get(name);
      return earlier !== undefined && (tools.get(earlier) !== undefined || tools.unavailable(earlier) !== undefined) ? earlier : undefined;
    },
  };
}

/** The surface for these inputs: from the view's shared memo when its version is current, else rendered and kept. */
function renderMemoized(options: SessionSurfaceOptions, format: string, version: number, starting: boolean): Surface {
  const { tools } = options;
  const inputs = {
    mode: options.mode,
    visible: tools.pinnedInputs(),
    clientTools: tools.clientInputs(),
    limits: options.limits,
    directory: options.directory,
    ...(options.mode === 'native' ? { format: format as SurfaceFormat, native: options.native } : {}),
    ...(starting ? { catalogStarting: true } : {}),
  };
  const key = JSON.stringify(inputs);
  const hit = options.memo.get(key);
  options.memo.delete(key);
  const surface = hit !== undefined && hit.version === version ? hit.surface : renderSurface({ ...inputs, catalog: tools.view });
  if (options.memo.size >= MAX_MEMO_ENTRIES) options.memo.delete(options.memo.keys().next().value as string);
  options.memo.set(key, { version, surface });
  return surface;
}
