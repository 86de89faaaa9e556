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
