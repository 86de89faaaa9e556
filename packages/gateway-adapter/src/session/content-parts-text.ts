import type { ContentPart } from '@tool-search/modes';

/**
 * The text of a tool's content parts for the model: text parts and text resources as they are, a short note
 * for each binary part (which goes to the provider as media, never as base64 text) and for each resource link;
 * structured content as JSON when the parts carry no text of their own.
 */
export function contentPartsText(parts: readonly ContentPart[], structured: Record<string, unknown> | undefined): string {
  const lines: string[] = [];
  let hasText = false;
  for (const part of parts) {
    switch (part.type) {
      case 'text':
        hasText = true;
        lines.push(part.text);
        break;
      case 'image':
      case 'audio':
        lines.push(`[${part.type} ${part.mimeType}, ${base64Bytes(part.data)} bytes, attached]`);
        break;
      case 'resource_link':
        lines.push(`[resource link: ${part.uri}${part.name === undefined ? '' : ` (${part.name})`}${part.mimeType === undefined ? '' : `, ${part.mimeType}`}]`);
        break;
      case 'resource':
        if (part.text !== undefined) {
          hasText = true;
          lines.push(`[resource ${part.uri}]\n${part.text}`);
        } else lines.push(`[resource ${part.uri}${part.mimeType === undefined ? '' : `, ${part.mimeType}`}, ${base64Bytes(part.blob ?? '')} bytes, attached]`);
        break;
    }
  }
  if (!hasText && structured !== undefined) lines.unshift(JSON.stringify(structured));
  return lines.join('\n');
}

/** Decoded size of base64 text (without decoding it). */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}
