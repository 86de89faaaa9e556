// The shared half of the tool result renderers: validate the result once, pick the binary parts a format can
// carry, apply the caps, and write a note for every part left out. Binary data is never cut: a part is kept
// whole or left out whole. Notes are our own text (a part's media type is printed only when well formed),
// so nothing a server sent reaches the model outside the caller's marked text.
import { z } from 'zod';
import { ModesError, type ModesErrorIssue } from '../errors.js';
import { DEFAULT_MEDIA_LIMITS } from '../media-limits.js';
import { mediaLimitsSchema, toolResultPartsSchema } from '../schemas.js';
import type { ContentPart, DroppedContentPart, MediaLimits, SurfaceFormat, ToolResultParts } from '../types.js';

/** What a binary part is for a provider. */
export type MediaKind = 'image' | 'pdf' | 'audio';

/** A binary part kept for rendering. */
export interface MediaItem {
  index: number;
  kind: MediaKind;
  /** Normalised media type (`image/jpg` is `image/jpeg`, `audio/x-wav` is `audio/wav`). */
  mimeType: string;
  /** The base64 data, as given. */
  data: string;
  bytes: number;
}

/** A validated result, split into the texts to send (in order) and the binary parts kept. */
export interface PreparedToolResult {
  /** The caller's text, the structured JSON and the notes, without empty ones. */
  texts: string[];
  media: MediaItem[];
  dropped: DroppedContentPart[];
  isError: boolean;
}

// What each format can carry as media in a tool result (OpenAI Chat: in the follow-up user message).
const SUPPORTED: Record<SurfaceFormat, Record<MediaKind, readonly string[]>> = {
  'openai-responses': { image: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'], pdf: ['application/pdf'], audio: [] },
  anthropic: { image: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'], pdf: ['application/pdf'], audio: [] },
  'openai-chat': { image: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'], pdf: ['application/pdf'], audio: ['audio/wav', 'audio/mpeg'] },
};

const FORMAT_NAMES: Record<SurfaceFormat, string> = {
  'openai-responses': 'OpenAI Responses',
  anthropic: 'Anthropic Messages',
  'openai-chat': 'OpenAI Chat Completions',
};

const MIME_ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'audio/x-wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/vnd.wave': 'audio/wav',
  'audio/mp3': 'audio/mpeg',
};

const MIME_PATTERN = /^[a-z0-9][a-z0-9.+-]{0,62}\/[a-z0-9][a-z0-9.+-]{0,62}$/;
const BASE64_PATTERN = /^[A-Za-z0-9+/]*={0,2}$/;

/** The media type without parameters, lowercased and de-aliased; undefined when it is not well formed. */
export function normalizeMimeType(mimeType: string | undefined): string | undefined {
  if (mimeType === undefined) return undefined;
  const bare = (mimeType.split(';')[0] ?? '').trim().toLowerCase();
  if (!MIME_PATTERN.test(bare)) return undefined;
  return MIME_ALIASES[bare] ?? bare;
}

/** Decoded size of well-formed base64, or undefined (whitespace is not accepted: providers reject it too). */
function base64Bytes(data: string): number | undefined {
  if (data.length % 4 !== 0 || !BASE64_PATTERN.test(data)) return undefined;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return (data.length / 4) * 3 - padding;
}

/** `1536` → `1.5 KiB`; deterministic (no locale). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

function kindOf(part: ContentPart, mimeType: string | undefined): MediaKind | 'other' | undefined {
  if (part.type === 'image') return 'image';
  if (part.type === 'audio') return 'audio';
  if (part.type !== 'resource' || part.blob === undefined) return undefined;
  if (mimeType?.startsWith('image/')) return 'image';
  if (mimeType?.startsWith('audio/')) return 'audio';
  if (mimeType === 'application/pdf') return 'pdf';
  return 'other';
}

const KIND_WORDS: Record<MediaKind | 'other', string> = { image: 'image', pdf: 'PDF document', audio: 'audio', other: 'file' };

function note(dropped: DroppedContentPart, kind: MediaKind | 'other', format: SurfaceFormat, limits: MediaLimits): string {
  const what = [dropped.mimeType ?? 'unknown type', dropped.bytes === undefined ? undefined : formatBytes(dropped.bytes)].filter((item) => item !== undefined).join(', ');
  const why: Record<DroppedContentPart['reason'], string> = {
    over_part_limit: `it is over the ${formatBytes(limits.maxPartBytes)} limit per part`,
    over_total_limit: `the parts before it already use the ${formatBytes(limits.maxTotalBytes)} limit per result`,
    unsupported_media: `${FORMAT_NAMES[format]} cannot carry this ${KIND_WORDS[kind]} in a tool result`,
    invalid_base64: 'its data is not valid base64',
  };
  return `[Content part ${dropped.index + 1} (${KIND_WORDS[kind]}, ${what}) was left out: ${why[dropped.reason]}.]`;
}

function stringifyStructured(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'bigint' ? inner.toString() : inner)) ?? '';
  } catch {
    throw new ModesError('invalid_tool_result', 'structured content cannot be serialised as JSON (it has a cycle); expected a JSON value');
  }
}

/** A failed parse's issues as plain values, each path in the one error-path syntax. */
function plainIssues(error: z.ZodError, prefix: readonly PropertyKey[]): ModesErrorIssue[] {
  return error.issues.map((issue) => ({ path: z.core.toDotPath([...prefix, ...issue.path]), message: issue.message }));
}

/** Validates `result` and `limits`, and prepares it for `format`. Throws `ModesError('invalid_tool_result')` on a malformed result. */
export function prepareToolResult(result: ToolResultParts, format: SurfaceFormat, limitsInput: Partial<MediaLimits> | undefined): PreparedToolResult {
  const parsed = toolResultPartsSchema.safeParse(result);
  if (!parsed.success) {
    const issues = plainIssues(parsed.error, []);
    const path = issues[0]?.path ?? '';
    throw new ModesError('invalid_tool_result', `invalid tool result: ${path || '(result)'}: ${issues[0]?.message ?? 'invalid'}`, { cause: issues, ...(path === '' ? {} : { path }) });
  }
  const parsedLimits = mediaLimitsSchema.safeParse(limitsInput ?? {});
  if (!parsedLimits.success) {
    const issues = plainIssues(parsedLimits.error, ['limits']);
    const path = issues[0]?.path ?? 'limits';
    throw new ModesError('invalid_options', `invalid media limits: ${path}: ${issues[0]?.message ?? 'invalid'}`, { cause: issues, path });
  }
  const limits: MediaLimits = { ...DEFAULT_MEDIA_LIMITS, ...Object.fromEntries(Object.entries(parsedLimits.data).filter(([, value]) => value !== undefined)) };
  const supported = SUPPORTED[format];
  const media: MediaItem[] = [];
  const dropped: DroppedContentPart[] = [];
  const notes: string[] = [];
  let total = 0;
  (result.parts ?? []).forEach((part, index) => {
    const mimeType = normalizeMimeType(part.type === 'image' || part.type === 'audio' ? part.mimeType : part.type === 'resource' ? part.mimeType : undefined);
    const kind = kindOf(part, mimeType);
    if (kind === undefined) return; // text-bearing: the caller's text carries it
    const data = part.type === 'resource' ? (part.blob as string) : (part as { data: string }).data;
    const bytes = base64Bytes(data);
    const drop = (reason: DroppedContentPart['reason']) => {
      const entry: DroppedContentPart = { index, type: part.type, reason };
      if (mimeType !== undefined) entry.mimeType = mimeType;
      if (bytes !== undefined) entry.bytes = bytes;
      dropped.push(entry);
      notes.push(note(entry, kind, format, limits));
    };
    if (kind === 'other' || mimeType === undefined || !supported[kind].includes(mimeType)) return drop('unsupported_media');
    if (bytes === undefined) return drop('invalid_base64');
    if (bytes > limits.maxPartBytes) return drop('over_part_limit');
    if (total + bytes > limits.maxTotalBytes) return drop('over_total_limit');
    total += bytes;
    media.push({ index, kind, mimeType, data, bytes });
  });
  const texts = [result.text, result.structured === undefined ? '' : stringifyStructured(result.structured), ...notes].filter((text) => text !== '');
  return { texts, media, dropped, isError: result.isError === true };
}
