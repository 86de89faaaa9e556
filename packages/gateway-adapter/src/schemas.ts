// zod schemas for what crosses this package's boundary: the `tools.toolSearch` setting and the MCP server
// configs. Our own config is strict (a typo fails loudly, with its path).
import { z } from 'zod';

/** The object form of the `tools.toolSearch` setting. */
export const toolSearchConfigObjectSchema = z.strictObject({
  /** Off when false (direct mode). Default true when the object form is used. */
  enabled: z.boolean().optional(),
  mode: z.enum(['code', 'tools', 'directory']).optional(),
  /** Clamped to 1,000–60,000. */
  codeTimeoutMs: z.number().int().positive().optional(),
  searchDefaultLimit: z.number().int().min(1).optional(),
  /** Clamped to at most 50. */
  maxSearchLimit: z.number().int().min(1).optional(),
  directory: z
    .strictObject({
      maxChars: z.number().int().min(1).optional(),
      contextWindowTokens: z.number().int().min(1).optional(),
    })
    .optional(),
  /** The harness has its own native tool search: render every schema (direct) and leave deferral to it. */
  native: z.boolean().optional(),
});

/** The whole `tools.toolSearch` setting: `true` (code mode), `false` (off) or the object form. */
export const toolSearchConfigSchema = z.union([z.boolean(), toolSearchConfigObjectSchema]);

/** The `tools.toolSearch` setting as a user writes it. */
export type ToolSearchConfigInput = z.input<typeof toolSearchConfigSchema>;

const serverNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'expected 1-64 letters, digits, "_", "." or "-" (it becomes the owner in tool ids)');

/** One MCP server: a child process over stdio, or a Streamable HTTP endpoint. */
export const mcpServerConfigSchema = z.discriminatedUnion('transport', [
  z.strictObject({
    name: serverNameSchema,
    transport: z.literal('stdio'),
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional(),
  }),
  z.strictObject({
    name: serverNameSchema,
    transport: z.literal('http'),
    url: z.url(),
    headers: z.record(z.string(), z.string()).optional(),
  }),
]);

/** One MCP server config (see `mcpServerConfigSchema`). */
export type McpServerConfig = z.infer<typeof mcpServerConfigSchema>;
