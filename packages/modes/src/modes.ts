// The one list of modes: what the model is shown. Every schema, CLI flag and comparison derives from it.

/** Every mode, direct first. */
export const MODES = ['direct', 'code', 'tools', 'directory', 'native'] as const;

/** The modes that put tool search in front of the catalog (all but `direct`). */
export const SEARCH_MODES = ['code', 'tools', 'directory', 'native'] as const;
