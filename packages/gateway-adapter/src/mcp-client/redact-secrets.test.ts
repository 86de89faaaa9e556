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
});
