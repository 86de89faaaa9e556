// Built-in groups. The OpenClaw families are scoped to the `openclaw` source, so a plugin or MCP tool
// that happens to be called `exec` is not swept into (or out of) `group:runtime` by accident.

/**
 * The groups every policy knows, by reference. Members are patterns (see the README for the syntax).
 * User-defined groups may not redefine these.
 */
export const BUILTIN_TOOL_GROUPS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  'group:runtime': Object.freeze(['openclaw:*:exec', 'openclaw:*:bash', 'openclaw:*:process', 'openclaw:*:code_execution']),
  'group:fs': Object.freeze(['openclaw:*:read', 'openclaw:*:write', 'openclaw:*:edit', 'openclaw:*:apply_patch']),
  'group:web': Object.freeze(['openclaw:*:web_search', 'openclaw:*:web_fetch', 'openclaw:*:x_search']),
  'group:ui': Object.freeze(['openclaw:*:browser', 'openclaw:*:canvas']),
  'group:automation': Object.freeze(['openclaw:*:cron', 'openclaw:*:gateway']),
  'group:messaging': Object.freeze(['openclaw:*:message']),
  'group:sessions': Object.freeze([
    'openclaw:*:sessions_list',
    'openclaw:*:sessions_history',
    'openclaw:*:sessions_send',
    'openclaw:*:sessions_spawn',
    'openclaw:*:sessions_yield',
    'openclaw:*:session_status',
    'openclaw:*:subagents',
    'openclaw:*:agents_list',
  ]),
  'group:memory': Object.freeze(['openclaw:*:memory_search', 'openclaw:*:memory_get']),
  'group:nodes': Object.freeze(['openclaw:*:nodes']),
  'group:media': Object.freeze([
    'openclaw:*:image',
    'openclaw:*:image_generate',
    'openclaw:*:music_generate',
    'openclaw:*:video_generate',
    'openclaw:*:tts',
  ]),
  'group:openclaw': Object.freeze(['openclaw:*:*']),
  'group:plugins': Object.freeze(['plugin:*:*']),
  'group:mcp': Object.freeze(['mcp:*:*']),
  'group:client': Object.freeze(['client:*:*']),
});
