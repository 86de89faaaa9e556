// Fakes for tests of code that uses the catalog's embedder path (shipped as `@tool-search/catalog/testing`).
export { createConceptEmbedder } from './create-concept-embedder.js';
export type { ConceptEmbedder } from './create-concept-embedder.js';
