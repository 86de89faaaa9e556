// npm install @tool-search/sandbox-runner   (Node >= 20.3), then: node readme-example.mjs
import { createRunner } from '@tool-search/sandbox-runner';

// Your tools behind the bridge: here one, a word search and a call.
const catalog = [{ id: 'openclaw:core:get_weather', name: 'get_weather', description: 'Get the weather forecast for a city.' }];
const search = (query) => catalog.filter((tool) => query.split(' ').some((word) => tool.description.includes(word)));
const invokeTool = async (id, args, { signal }) => (signal.aborted ? 'cancelled' : { city: args.city, forecast: 'rain' });

const runner = createRunner({ engine: 'auto', pool: { size: 2 } }); // 'node' | 'quickjs' | 'auto'
const result = await runner.run({
  code: `const [hit] = await tools.search('weather in Oslo');
         console.log('calling', hit.id);
         return await tools.call(hit.id, { city: 'Oslo' });`,
  bridge: {
    search: (query, options) => search(query).slice(0, options?.limit ?? 5),
    describe: (id) => catalog.find((tool) => tool.id === id) ?? { found: false },
    call: (id, args, { signal }) => invokeTool(id, args, { signal }),
  },
  timeoutMs: 10_000,
});
if (result.ok) console.log(result.value, result.logs);
else console.log(result.error.code, result.error.message); // 'timeout', 'runtime', ...
await runner.close();
