// Secret-shaped stderr: generated lines that carry a secret value the way servers print them (a credential-named
// `NAME=value` or `NAME: value`, quoted or not, in JSON, an env value the config passes, a bearer or basic
// header), amid ordinary words. Whatever the line, the generated value never survives redaction.
import fc from 'fast-check';
import { propertySettings } from '@tool-search/property-settings';
import { describe, expect, it } from 'vitest';
import { createSecretRedactor, REDACTED } from './redact-secrets.js';

const WORDS = ['error', 'starting', 'server', 'listening', 'on', 'port', 'failed', 'retry', 'config', 'loaded', 'user', 'ok', 'the', 'value'];
const CREDENTIAL_WORDS = ['token', 'secret', 'password', 'passwd', 'key', 'credential', 'auth', 'cookie'];
const NAME_PARTS = ['db', 'github', 'aws', 'access', 'openai', 'api', 'x', 'client', 'session', 'private', 'bot', 'app'];
// Value characters: what tokens, keys and passwords use (no blank or quote: a bare value ends at one).
const VALUE_CHARS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', '_', '-', '.', '/', '+', '=', '!', '$', '%', '&', '*', '@', '#', '~', ';', ','];

const inAnyCase = (word: string) => fc.array(fc.boolean(), { minLength: word.length, maxLength: word.length }).map((upper) => [...word].map((char, index) => (upper[index] ? char.toUpperCase() : char)).join(''));
const separator = fc.constantFrom('_', '-', '.', '');
/** A name holding a credential word, with other parts before and after it joined by `_`, `-`, `.` or nothing. */
const credentialName = fc
  .tuple(fc.array(fc.constantFrom(...NAME_PARTS), { maxLength: 2 }), fc.constantFrom(...CREDENTIAL_WORDS), fc.array(fc.constantFrom(...NAME_PARTS), { maxLength: 2 }), separator)
  .chain(([before, word, after, join]) => fc.tuple(...[...before, word, ...after].map(inAnyCase)).map((parts) => parts.join(join)));
/** A secret: 8 to 40 value characters with at least one digit and one capital, so no ordinary word equals it. */
const secretValue = fc
  .array(fc.constantFrom(...VALUE_CHARS), { minLength: 6, maxLength: 38 })
  .chain((chars) => fc.tuple(fc.constantFrom(...'0123456789'), fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ')).map(([digit, capital]) => `${digit}${chars.join('')}${capital}`));
const words = fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }).map((list) => list.join(' '));

/** How a line carries its secret `value` under `name`. */
const CARRIERS: ReadonlyArray<(name: string, value: string) => string> = [
  (name, value) => `${name}=${value}`,
  (name, value) => `${name}: ${value}`,
  (name, value) => `${name} = "${value} and more"`,
  (name, value) => `${name}='${value}'`,
  (name, value) => `{"${name}":"${value}","other":1}`,
  (name, value) => `--${name}=${value}`,
  (_name, value) => `Authorization: Bearer ${value}`,
  (_name, value) => `authorization: basic ${value}`,
  (_name, value) => `proxy-authorization: Basic ${value}`,
];

describe('createSecretRedactor (property)', () => {
  it('never lets a credential-named value through, whatever the name, the carrier and the words around it', () => {
    fc.assert(
      fc.property(credentialName, secretValue, fc.nat(CARRIERS.length - 1), words, words, (name, value, carrier, before, after) => {
        const line = `${before} ${CARRIERS[carrier]?.(name, value)} ${after}`;
        const redacted = createSecretRedactor()(line);
        expect(redacted, line).not.toContain(value);
        expect(redacted).toContain(REDACTED);
      }),
      { numRuns: propertySettings().runs(2_000), seed: propertySettings().seed },
    );
  });

  it('never lets the value of an env variable the config passes through, wherever it stands and whatever its name', () => {
    const envName = fc.stringMatching(/^[A-Z][A-Z0-9_]{0,15}$/);
    fc.assert(
      fc.property(fc.dictionary(envName, secretValue, { minKeys: 1, maxKeys: 4 }), fc.nat(3), words, words, (env, pick, before, after) => {
        const entries = Object.entries(env);
        const [name, value] = entries[pick % entries.length] as [string, string];
        const redact = createSecretRedactor(Object.values(env), { names: Object.keys(env) });
        for (const line of [`${before} ${value} ${after}`, `${before}${value}${after}`, `${before} "${value}" ${after}`]) expect(redact(line), line).not.toContain(value);
        // Under its own name, a value shorter than a free-standing secret goes too (whatever the name says).
        const short = value.slice(0, 3);
        expect(redact(`${before} ${name}=${short} ${after}`)).not.toContain(`${name}=${short}`);
      }),
      { numRuns: propertySettings().runs(1_000), seed: propertySettings().seed },
    );
  });
});
