// The fields of listed resources, templates and prompts that the connection hands on (SDK objects carry more).
import type { McpPrompt, McpResource, McpResourceTemplate } from './mcp-server-connection.js';

export function pickResource(resource: { uri: string; name: string; title?: string | undefined; description?: string | undefined; mimeType?: string | undefined; size?: number | undefined }): McpResource {
  const out: McpResource = { uri: resource.uri, name: resource.name };
  if (resource.title !== undefined) out.title = resource.title;
  if (resource.description !== undefined) out.description = resource.description;
  if (resource.mimeType !== undefined) out.mimeType = resource.mimeType;
  if (resource.size !== undefined) out.size = resource.size;
  return out;
}

export function pickResourceTemplate(template: { uriTemplate: string; name: string; title?: string | undefined; description?: string | undefined; mimeType?: string | undefined }): McpResourceTemplate {
  const out: McpResourceTemplate = { uriTemplate: template.uriTemplate, name: template.name };
  if (template.title !== undefined) out.title = template.title;
  if (template.description !== undefined) out.description = template.description;
  if (template.mimeType !== undefined) out.mimeType = template.mimeType;
  return out;
}

export function pickPrompt(prompt: { name: string; title?: string | undefined; description?: string | undefined; arguments?: { name: string; description?: string | undefined; required?: boolean | undefined }[] | undefined }): McpPrompt {
  const out: McpPrompt = { name: prompt.name };
  if (prompt.title !== undefined) out.title = prompt.title;
  if (prompt.description !== undefined) out.description = prompt.description;
  if (prompt.arguments !== undefined) {
    out.arguments = prompt.arguments.map((argument) => ({
      name: argument.name,
      ...(argument.description === undefined ? {} : { description: argument.description }),
      ...(argument.required === undefined ? {} : { required: argument.required }),
    }));
  }
  return out;
}
