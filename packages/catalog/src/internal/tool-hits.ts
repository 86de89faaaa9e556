// ToolHits: how a catalogued tool is shown. A search hit (cached per id: the sanitised short description and
// the rendered input signature) and a full description, both through the same sanitiser, trusted or not.
import { renderInputSignature } from '../render-input-signature.js';
import { sanitizeText } from '../sanitize-text.js';
import { MAX_DESCRIPTION_LENGTH } from '../schemas.js';
import type { SearchHit, ToolDescription, ToolDescriptor } from '../types.js';
import type { ToolStore } from './tool-store.js';

/** Longest hit description, in characters. */
export const MAX_HIT_DESCRIPTION_LENGTH = 180;
/** Longest description `describe` returns for an untrusted tool, in characters (trusted: `MAX_DESCRIPTION_LENGTH`). */
export const MAX_DESCRIBE_LENGTH = 8_000;

/** Hits and descriptions of the store's tools; `forget` a removed id so a new tool of that id is rendered anew. */
export class ToolHits {
  private readonly cache = new Map<string, Omit<SearchHit, 'score'>>();

  constructor(private readonly store: ToolStore) {}

  /** The hit of a catalogued tool (the caller has checked it is catalogued and visible). */
  hit(id: string, score: number): SearchHit {
    let base = this.cache.get(id);
    if (!base) {
      const tool = this.store.get(id) as ToolDescriptor;
      base = {
        id: tool.id,
        name: tool.name,
        source: tool.source,
        owner: tool.owner,
        // Trusted or not, every description goes through the same sanitiser.
        description: sanitizeText(tool.description, { maxLength: MAX_HIT_DESCRIPTION_LENGTH }),
        input: renderInputSignature(tool.inputSchema),
      };
      this.cache.set(id, base);
    }
    return { ...base, score };
  }

  /** The full description `describe` and `likelyTools` return. */
  describe(tool: ToolDescriptor): ToolDescription {
    const maxLength = tool.trusted ? MAX_DESCRIPTION_LENGTH : MAX_DESCRIBE_LENGTH;
    const description = sanitizeText(tool.description, { maxLength });
    return {
      ...this.hit(tool.id, 1),
      description,
      descriptionTruncated: description.length < sanitizeText(tool.description, { maxLength: Number.MAX_SAFE_INTEGER }).length,
      ...(tool.title === undefined ? {} : { title: sanitizeText(tool.title, { maxLength: 200 }) }),
      ...(tool.annotations === undefined ? {} : { annotations: { ...tool.annotations } }),
      inputSchema: tool.inputSchema,
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    };
  }

  forget(id: string): void {
    this.cache.delete(id);
  }
}
