// The process's open fds above 3 that lack close-on-exec: a child would inherit them (libuv does not close them,
// and setpriv/unshare/prlimit pass them on). The child's bootstrap closes exactly these before anything else.
//
// Self-contained (no imports, no outer names, no nested functions): the child-process host's worker embeds its
// source text with String(listInheritableFds) and lists the fds right before each spawn, off the host's event
// loop (reading /proc/self/fdinfo on the parent's thread cost about as much per spawn as the rest of its work
// there; bench/RESULTS.md, "Spawning").

/** What `listInheritableFds` reads the fd table with (`node:fs`). */
export interface FdTableReader {
  readdirSync(path: string): string[];
  readFileSync(path: string, encoding: 'utf8'): string;
}

/** Lists inheritable fds > 3 of this process (Linux, from /proc/self/fdinfo); empty on other platforms. */
export function listInheritableFds(fs: FdTableReader, platform: string): number[] {
  const closeOnExec = 0o2000000;
  if (platform !== 'linux') return [];
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc/self/fd');
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
      info = fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8');
    } catch {
      continue; // closed meanwhile (e.g. the directory handle of the listing itself)
    }
    const flags = /^flags:\s+([0-7]+)/m.exec(info)?.[1];
    if (flags !== undefined && (Number.parseInt(flags, 8) & closeOnExec) === 0) inheritable.push(fd);
  }
  return inheritable;
}
