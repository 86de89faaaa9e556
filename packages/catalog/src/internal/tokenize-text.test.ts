import { describe, expect, it } from 'vitest';
import { analyzeText, splitWords, tokenizeText } from './tokenize-text.js';

describe('splitWords', () => {
  it('splits camelCase, PascalCase and acronyms', () => {
    expect(splitWords('getUserID XMLHttpRequest')).toEqual(['get', 'User', 'ID', 'XML', 'Http', 'Request']);
  });

  it('splits snake_case, kebab-case, dots and __ server prefixes', () => {
    expect(splitWords('github__create_issue fs.read-file')).toEqual(['github', 'create', 'issue', 'fs', 'read', 'file']);
  });

  it('keeps letters of other scripts and splits CJK text into characters', () => {
    expect(splitWords('Wetter für Köln 天气预报')).toEqual(['Wetter', 'für', 'Köln', '天', '气', '预', '报']);
  });
});

describe('tokenizeText', () => {
  it('drops stop words and stems the rest', () => {
    expect(tokenizeText('Could you please list the open issues')).toEqual(['list', 'open', 'issu']);
  });

  it('keeps short numbers and drops long ones', () => {
    expect(tokenizeText('error 404 at 1712345678')).toEqual(['error', '404']);
  });

  it('lower-cases non-English words without stemming them', () => {
    expect(tokenizeText('Überprüfe Straßen')).toEqual(['überprüfe', 'straßen']);
  });

  it('returns nothing for text made only of stop words and punctuation', () => {
    expect(tokenizeText('the and of ... ?!')).toEqual([]);
  });
});

describe('analyzeText', () => {
  it('keeps the whole form of an identifier split at case changes', () => {
    expect(analyzeText('GitHub eBay getUserID read_file HTML').joined).toEqual(['github', 'ebai', 'getuserid']);
  });
});
