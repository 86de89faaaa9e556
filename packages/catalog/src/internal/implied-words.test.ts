import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { impliedWords } from './implied-words.js';

describe('impliedWords', () => {
  it('reads #42 as an issue or pull request number, and not a character entity or a word', () => {
    expect(impliedWords('which paths does #42 change')).toBe('which paths does #42 issue pull request change');
    expect(impliedWords('close #7, #8')).toBe('close #7 issue pull request, #8 issue pull request');
    for (const query of ['&#42; stars', 'C#7 notes', '#general channel', 'comment on issue #17', 'merge PR #3']) expect(impliedWords(query)).toBe(query);
  });

  it('reads a file name of a known extension as a file, and an image, sound or video by its kind', () => {
    expect(impliedWords('read the contents of config.yaml')).toBe('read the contents of config.yaml file');
    expect(impliedWords('look at logo.JPG')).toBe('look at logo.JPG image file');
    expect(impliedWords('trim intro.mp3 and demo.mov')).toBe('trim intro.mp3 audio file and demo.mov video file');
    expect(impliedWords('append to logs/app-1.log, then open README.md')).toBe('append to logs/app-1.log file, then open README.md file');
  });

  it('leaves alone what is not a file name: hosts, versions, abbreviations, projects, unknown extensions', () => {
    for (const query of ['crawl example.com', 'a picnic in Washington D.C.', 'upgrade to v1.2', 'e.g. a list', 'Next.js routing docs', 'open report.final', 'a sentence. Another one']) {
      expect(impliedWords(query)).toBe(query);
    }
    expect(impliedWords('no dot here')).toBe('no dot here');
  });

  it('reads a question for a number of things or of times as a count, and not an amount or a number of something', () => {
    expect(impliedWords('how many people signed up this month')).toBe('how many count people signed up this month');
    expect(impliedWords('How often did this fault occur, and how  MANY users saw it')).toBe('How often count did this fault occur, and how  MANY count users saw it');
    for (const query of ['how much memory is free', 'the number of the page', 'somehow many tools', 'how manyfold']) expect(impliedWords(query)).toBe(query);
  });

  it('takes a whole dotted name by its last extension, and a name at the end of a sentence', () => {
    expect(impliedWords('unpack archive.tar.gz')).toBe('unpack archive.tar.gz file');
    expect(impliedWords('open README.md. Then stop')).toBe('open README.md file. Then stop');
    expect(impliedWords('data.json5 and json.gzip')).toBe('data.json5 and json.gzip');
  });
});

describe('impliedWords, for any text', () => {
  /** Text made of the pieces the rules look for, so the generated cases hit them (and their edges) often. */
  const pieces = fc.constantFrom('how', 'many', 'often', 'much', ' ', '  ', '\n', '#', '#42', '&', '.', 'a.', 'logo', '.jpg', '.tar', '.gz', '.js', 'D.C.', 'issue', 'PR', 'file', '-', '_', 'é', 'x');
  const texts = fc.oneof(fc.string({ maxLength: 80 }), fc.array(pieces, { maxLength: 40 }).map((list) => list.join('')));
  const IMPLIED = new Set(['file', 'image', 'audio', 'video', 'issue', 'pull', 'request', 'count']);

  it('only inserts: the query is kept in order, and every word added is an implied word', () => {
    const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
    fc.assert(
      fc.property(texts, (query) => {
        const out = impliedWords(query);
        // The query is a subsequence of the output...
        let at = 0;
        for (const char of out) if (char === query[at]) at += 1;
        expect(at).toBe(query.length);
        // ...and the words of the output are the query's, whole, and implied words.
        const left = words(out);
        for (const word of words(query)) left.splice(left.indexOf(word), left.includes(word) ? 1 : 0);
        expect(left.filter((word) => !IMPLIED.has(word)), JSON.stringify(out)).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });
});
