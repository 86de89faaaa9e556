import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { OAuthTokenStore, StoredOAuthState } from './oauth-token-store.js';

/** File mode of every state file: owner read/write only. */
export const TOKEN_FILE_MODE = 0o600;

/**
 * A token store of one JSON file per server in `directory` (created 0700), each written 0600 through a temp file
 * and a rename, so a crash never leaves half a file and no other user can read a token. The default for a CLI.
 */
export function createFileTokenStore(directory: string): OAuthTokenStore {
  const fileOf = (server: string) => join(directory, `${encodeURIComponent(server)}.json`);
  let sequence = 0;
  return {
    async load(server) {
      let text: string;
      try {
        text = await readFile(fileOf(server), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
      // A file someone else can read is tightened before it is used again.
      const mode = (await stat(fileOf(server))).mode & 0o777;
      if (mode !== TOKEN_FILE_MODE) await chmod(fileOf(server), TOKEN_FILE_MODE);
      try {
        return JSON.parse(text) as StoredOAuthState;
      } catch {
        // A corrupt file is as good as none: the server asks for authorization again.
        return undefined;
      }
    },
    async save(server, state) {
      await mkdir(directory, { recursive: true, mode: 0o700 });
      sequence += 1;
      const temporary = `${fileOf(server)}.${process.pid}.${sequence}.tmp`;
      await writeFile(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: TOKEN_FILE_MODE });
      await rename(temporary, fileOf(server));
    },
    async delete(server) {
      await rm(fileOf(server), { force: true });
    },
  };
}
