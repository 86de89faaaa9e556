// The parent's open fds above 3 that lack close-on-exec: a child would inherit them (libuv does not close them,
// and setpriv/unshare/prlimit pass them on). The child's bootstrap closes exactly these before anything else.
import { readdirSync, readFileSync } from 'node:fs';

const O_CLOEXEC = 0o2000000;

/** Lists inheritable fds > 3 of this process (Linux, from /proc/self/fdinfo); empty elsewhere. */
export function listInheritableFds(): number[] {
  if (process.platform !== 'linux') return [];
  let entries: string[];
  try {
    entries = readdirSync('/proc/self/fd');
  } catch {
    return [];
  }
  const inheritable: number[] = [];
  for (const entry of entries) {
    const fd = Number(entry);
    // 0–3 are replaced in the child by its own pipes.
    if (!Number.isInteger(fd) || fd <= 3) continue;
    let info: string;
    try {
      info = readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8');
    } catch {
      continue; // closed meanwhile (e.g. the directory handle of the listing itself)
    }
    const flags = /^flags:\s+([0-7]+)/m.exec(info)?.[1];
    if (flags !== undefined && (Number.parseInt(flags, 8) & O_CLOEXEC) === 0) inheritable.push(fd);
  }
  return inheritable;
}
