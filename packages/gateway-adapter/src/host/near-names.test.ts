import { describe, expect, it } from 'vitest';
import { nearNames } from './near-names.js';

describe('nearNames', () => {
  it('suggests a name one edit away', () => {
    expect(nearNames('titel', ['title', 'body', 'labels'])).toEqual(['title']);
  });

  it('ignores case and separators', () => {
    expect(nearNames('Repo_Name', ['repoName', 'owner'])).toEqual(['repoName']);
  });

  it('orders by distance, then by name, and keeps at most max', () => {
    expect(nearNames('colour', ['collar', 'colours', 'color'])).toEqual(['color', 'colours', 'collar']);
    expect(nearNames('colour', ['collar', 'colours', 'color'], 2)).toEqual(['color', 'colours']);
  });

  it('suggests nothing when every candidate is far', () => {
    expect(nearNames('query', ['owner', 'repo'])).toEqual([]);
  });
});
