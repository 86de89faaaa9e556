// createView: a reader over the tools a filter admits. The admitted set is an index scope that catches up with
// the catalog's journal when the view is read, or re-reads the catalog when the journal no longer reaches back.
import { z } from 'zod';
import { CatalogError } from '../errors.js';
import { resolveSearchLimits, type ResolvedSearchLimits } from '../resolve-search-limits.js';
import { viewOptionsSchema } from '../schemas.js';
import type { CatalogView, ToolDescriptor, ToolFilter, ViewOptions } from '../types.js';
import { createReader } from './create-reader.js';
import { describeType } from './describe-type.js';
import type { CatalogParts } from './reader-context.js';

/** A view of the catalog; its limits default to the catalog's and are clamped like them (never above the ceiling). */
export function createView(parts: CatalogParts, limits: ResolvedSearchLimits, filter: ToolFilter, options: ViewOptions = {}): CatalogView {
  if (typeof filter !== 'function') {
    throw new CatalogError('invalid_options', `Invalid view filter: expected a function (tool) => boolean, received ${describeType(filter)}.`);
  }
  const parsed = viewOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = z.core.toDotPath(issue?.path ?? []);
    throw new CatalogError('invalid_options', `Invalid view option \`${path}\`: ${issue?.message ?? 'invalid'}.`, { path });
  }
  const { store } = parts;
  const scope = parts.index.createScope();
  let seen = -1;
  const admit = (tool: ToolDescriptor) => {
    if (filter(tool) === true) scope.admit(tool.id);
  };
  const catchUp = () => {
    if (seen === store.version) return;
    const changes = store.changesSince(seen);
    if (changes === undefined) {
      scope.clear();
      for (const tool of store.tools()) admit(tool);
    } else {
      for (const change of changes) {
        for (const { slot } of change.removed) scope.dropSlot(slot);
        // A tool added and removed again since is not there any more: `admit` skips ids without a slot.
        for (const tool of change.added) if (store.get(tool.id) === tool) admit(tool);
      }
    }
    seen = store.version;
  };
  const tools = function* () {
    for (const tool of store.tools()) if (scope.has(tool.id)) yield tool;
  };
  return createReader(parts, { index: scope, size: () => scope.count, tools, stamp: () => store.version, sync: catchUp }, resolveSearchLimits(parsed.data, limits));
}
