/**
 * @tool-search/sandbox-runner/testing: fakes for consumers' tests. Adding an export here makes it public API.
 */
export { createFakeRunner } from './fake-runner.js';
export type { FakeRunRecord } from './fake-runner.js';
