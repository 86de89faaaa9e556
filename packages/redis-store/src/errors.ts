// The one error class of @tool-search/redis-store: a Redis URL that is not one, or a Redis that cannot be reached.
// What a store holds (a token, or none) is a value; this is for the store that cannot start.
import { createErrorGuard, ToolSearchErrorBase } from '@tool-search/error-base';

/** The closed set of codes a `RedisStoreError` carries. */
export type RedisStoreErrorCode = 'invalid_url' | 'invalid_options' | 'unreachable';

/** Thrown by `connectRedisStore` when the URL or an option is unusable, or the Redis behind it does not answer. */
export class RedisStoreError extends ToolSearchErrorBase<RedisStoreErrorCode> {
  constructor(code: RedisStoreErrorCode, message: string, options?: { cause?: unknown; path?: string }) {
    super('RedisStoreError', code, message, options);
  }
}

/** True when `value` is a `RedisStoreError`, across package copies (brand check, not `instanceof`). */
export const isRedisStoreError = createErrorGuard<RedisStoreError>('RedisStoreError');
