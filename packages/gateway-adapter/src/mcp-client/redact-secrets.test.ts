import { describe, expect, it } from 'vitest';
import { createSecretRedactor } from './redact-secrets.js';

describe('createSecretRedactor', () => {
  it('replaces given secret values and credential-looking strings, and keeps the rest readable', () => {
    const redact = createSecretRedactor(['hunter2-long-secret', 'true']);
    expect(redact('login with hunter2-long-secret failed; verbose=true')).toBe('login with [redacted] failed; verbose=true');
    expect(redact('Authorization: Bearer abc.def.ghi-123456')).toBe('Authorization: [redacted]');
    expect(redact('token=abcd1234 password: "pa55word" api_key=zzzz9999')).toBe('token=[redacted] password: "[redacted]" api_key=[redacted]');
    expect(redact('sk-ant-0123456789abcdefXYZ and AKIAABCDEFGHIJKLMNOP')).toBe('[redacted] and [redacted]');
    expect(redact('Please set SLACK_BOT_TOKEN environment variable')).toBe('Please set SLACK_BOT_TOKEN environment variable');
  });

  it('redacts a value whose name holds a credential word inside a longer name, in any case, with _ or - in it', () => {
    const redact = createSecretRedactor();
    expect(redact('DB_PASSWORD=hunter2 GITHUB_TOKEN=abc123 AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI OPENAI_API_KEY=k1')).toBe(
      'DB_PASSWORD=[redacted] GITHUB_TOKEN=[redacted] AWS_SECRET_ACCESS_KEY=[redacted] OPENAI_API_KEY=[redacted]',
    );
    expect(redact('x-api-key: 0123 abcd')).toBe('x-api-key: [redacted]');
    expect(redact('Cookie: sid=abc; theme=dark')).toBe('Cookie: [redacted]');
    expect(redact('{"clientCredential":"p q r","user":"ann"}')).toBe('{"clientCredential":"[redacted]","user":"ann"}');
    expect(redact("export Db-Passwd='s3 cr3t' && run")).toBe("export Db-Passwd='[redacted]' && run");
    expect(redact('spring.datasource.password = x')).toBe('spring.datasource.password = [redacted]');
  });

  it('redacts basic credentials and passwords in URLs, not the word "Basic" in a sentence', () => {
    const redact = createSecretRedactor();
    expect(redact('sent Basic dXNlcjpwYXNz to the proxy')).toBe('sent [redacted] to the proxy');
    expect(redact('Basic authentication failed')).toBe('Basic authentication failed');
    expect(redact('connecting to postgres://app:s3cret@db:5432/main')).toBe('connecting to postgres://app:[redacted]@db:5432/main');
  });

  it('redacts NAME=value for every name the config passes, whatever the name says and however short the value', () => {
    const redact = createSecretRedactor(['abc'], { names: ['PIN', 'DEBUG'] });
    expect(redact('PIN=abc SPIN=keep')).toBe('PIN=[redacted] SPIN=keep');
    expect(redact('DEBUG: server started')).toBe('DEBUG: server started');
  });

  it('reads a 100,000-character name with a credential word in it without backtracking through it', () => {
    const redact = createSecretRedactor();
    const long = `${'a_'.repeat(50_000)}token and more`;
    expect(redact(long)).toBe(long);
    expect(redact(`${'a_'.repeat(50_000)}token=x`)).toBe(`${'a_'.repeat(50_000)}token=[redacted]`);
  });
});
