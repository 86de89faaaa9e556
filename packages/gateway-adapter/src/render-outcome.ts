// A tool-call outcome as the provider's tool-result shape (the rendering itself belongs to modes).
import { toProviderToolResult, type ProviderToolResultFor, type RenderToolResultOptions, type SurfaceFormat } from '@tool-search/modes';
import { GatewayAdapterError } from './errors.js';
import type { ToolCallOutcome } from './tool-call-outcome.js';

/**
 * Renders an outcome for `format`: its `content` as the text, and (for an `ok` outcome of a tool that gave
 * them) its images, audio and binary resources as the provider's media blocks, never as base64 text. An
 * `error` or `blocked` outcome is marked as an error where the format can say so. A `client` outcome has no
 * result to render (the caller runs that tool): it throws `GatewayAdapterError('invalid_options')`.
 */
export function renderOutcome<F extends SurfaceFormat>(outcome: ToolCallOutcome, format: F, options: RenderToolResultOptions): ProviderToolResultFor<F> {
  if (outcome.status === 'client') {
    throw new GatewayAdapterError('invalid_options', `Outcome ${outcome.toolCallId} is a client tool call: forward it to the caller, there is no result to render`);
  }
  const parts = outcome.status === 'ok' ? outcome.parts : undefined;
  return toProviderToolResult(
    { text: outcome.content, ...(parts === undefined ? {} : { parts }), ...(outcome.status === 'ok' ? {} : { isError: true }) },
    format,
    options,
  );
}
