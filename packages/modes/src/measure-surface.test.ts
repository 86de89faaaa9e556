import { describe, expect, it } from 'vitest';
import { createFakeCatalog } from './internal/create-fake-catalog.js';
import { syntheticTools } from './internal/fixtures.js';
import { measureSurface } from './measure-surface.js';
import { renderSurface } from './render-surface.js';
import { toProviderTools } from './to-provider-tools.js';
import type { Surface, SurfaceFormat } from './types.js';

const FORMATS: SurfaceFormat[] = ['openai-chat', 'openai-responses', 'anthropic'];

describe('measureSurface', () => {
  it('counts the compact JSON of the provider tools and the instructions', () => {
    const surface = renderSurface({ mode: 'tools', catalog: createFakeCatalog(syntheticTools(5)) });
    for (const format of FORMATS) {
      const measure = measureSurface(surface, format);
      expect(measure.toolBytes).toBe(JSON.stringify(toProviderTools(surface.tools, format)).length);
      expect(measure.instructionBytes).toBe(surface.instructions.length);
      expect(measure.totalBytes).toBe(measure.toolBytes + measure.instructionBytes);
    }
  });

  it('counts UTF-8 bytes, not characters', () => {
    const surface: Surface = {
      mode: 'direct',
      tools: [{ name: 'wetter', description: 'Wetter für München', inputSchema: { type: 'object' }, kind: 'catalog' }],
      instructions: 'é…',
      hydratable: new Map(),
    };
    const measure = measureSurface(surface, 'anthropic');
    expect(measure.instructionBytes).toBe(5);
    expect(measure.toolBytes).toBe(JSON.stringify(toProviderTools(surface.tools, 'anthropic')).length + 2);
  });

  // The surface size targets, on a synthetic catalog (the benchmark measures the real data).
  for (const size of [100, 10_000]) {
    const catalog = createFakeCatalog(syntheticTools(size));
    it(`keeps code and tools modes within 3,000 bytes and directory within 14,000 at ${size} tools`, () => {
      const code = renderSurface({ mode: 'code', catalog });
      const tools = renderSurface({ mode: 'tools', catalog });
      const directory = renderSurface({ mode: 'directory', catalog });
      for (const format of FORMATS) {
        expect(measureSurface(code, format).totalBytes).toBeLessThanOrEqual(3_000);
        expect(measureSurface(tools, format).totalBytes).toBeLessThanOrEqual(3_000);
        expect(measureSurface(directory, format).totalBytes).toBeLessThanOrEqual(14_000);
      }
    });
  }

  it('counts the up-front bytes as the whole tools array, and no deferred tools, outside native mode', () => {
    const surface = renderSurface({ mode: 'direct', catalog: createFakeCatalog(syntheticTools(5)) });
    for (const format of FORMATS) {
      const measure = measureSurface(surface, format);
      expect(measure.upFrontToolBytes).toBe(measure.toolBytes);
      expect(measure.deferredTools).toBe(0);
    }
  });

  it('leaves the deferred definitions out of the up-front bytes in native mode', () => {
    const catalog = createFakeCatalog(syntheticTools(50));
    const anthropic = renderSurface({ mode: 'native', format: 'anthropic', catalog });
    const anthropicMeasure = measureSurface(anthropic, 'anthropic');
    expect(anthropicMeasure.deferredTools).toBe(50);
    expect(anthropicMeasure.toolBytes).toBe(JSON.stringify(toProviderTools(anthropic.tools, 'anthropic')).length);
    // Anthropic shows nothing of a deferred tool: only the search tool is up front.
    expect(anthropicMeasure.upFrontToolBytes).toBe(JSON.stringify(toProviderTools(anthropic.tools.slice(0, 1), 'anthropic')).length);

    const responses = renderSurface({ mode: 'native', format: 'openai-responses', catalog });
    const responsesMeasure = measureSurface(responses, 'openai-responses');
    // OpenAI shows each namespace's name and description: the namespaces, emptied of their deferred functions.
    const upFront = toProviderTools(responses.tools, 'openai-responses').map((tool) => (tool.type === 'namespace' ? { ...tool, tools: [] } : tool));
    expect(responsesMeasure.upFrontToolBytes).toBe(JSON.stringify(upFront).length);
    expect(responsesMeasure.upFrontToolBytes).toBeLessThan(responsesMeasure.toolBytes / 3);
  });
});

