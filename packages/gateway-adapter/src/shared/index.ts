// Helpers the host, the sessions and the MCP client share: run slots, signal combining, schema limits and the
// bounded schema compiler, and the one wording of a zod error. The rooms above import this index, never its files;
// nothing here imports a room.
export { checkSchemaLimits, DEFAULT_SCHEMA_LIMITS } from './check-schema-limits.js';
export type { SchemaLimits } from './check-schema-limits.js';
export { combineSignals, raceAbort } from './combine-signals.js';
export { createBoundedSchemaCompiler } from './create-bounded-schema-compiler.js';
export type { BoundedSchemaCompiler } from './create-bounded-schema-compiler.js';
export { acquireRunSlots, createRunSlots, defaultMaxConcurrentRuns } from './create-run-slots.js';
export type { CodeRunLimits, RunSlot, RunSlots } from './create-run-slots.js';
export { formatZodError } from './format-zod-error.js';
