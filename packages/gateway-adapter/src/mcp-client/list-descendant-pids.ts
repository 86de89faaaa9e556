import { readdirSync, readFileSync } from 'node:fs';

/**
 * Process ids below `pid` (children, grandchildren, …), read from /proc on Linux; empty elsewhere or when
 * /proc cannot be read. A server started through a wrapper (`npx`, `sh -c`) runs in a grandchild that
 * closing the wrapper's pipes does not always stop.
 */
export function listDescendantPids(pid: number): number[] {
  if (process.platform !== 'linux') return [];
  const childrenOf = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the parenthesised command name: state, ppid, … (the name itself may contain spaces).
    const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const parent = Number(after[1]);
    const list = childrenOf.get(parent) ?? [];
    list.push(Number(entry));
    childrenOf.set(parent, list);
  }
  const out: number[] = [];
  const queue = [...(childrenOf.get(pid) ?? [])];
  while (queue.length > 0) {
    const next = queue.shift()!;
    out.push(next);
    queue.push(...(childrenOf.get(next) ?? []));
  }
  return out;
}
