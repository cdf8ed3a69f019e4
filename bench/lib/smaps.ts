import { readFileSync } from 'node:fs';

/**
 * A process's resident memory by mapping (/proc/<pid>/smaps), MB: the Node binary's own pages, native add-ons
 * (better-sqlite3, re2, argon2 …), the rest of the shared libraries, and anonymous memory (every thread's V8 heap,
 * WASM memories, SharedArrayBuffers, malloc arenas and stacks: the part the gateway's settings move).
 */
export function residentByMapping(pid: number): Record<string, number> {
  const groups: Record<string, number> = { node_binary: 0, native_addons: 0, shared_libraries: 0, anonymous: 0, other_files: 0 };
  let group = 'anonymous';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const name = head[1];
      group = !name || name.startsWith('[') ? 'anonymous' : name.endsWith('.node') ? 'native_addons' : /\/node$/.test(name) ? 'node_binary' : /\.so(\.|$)/.test(name) ? 'shared_libraries' : 'other_files';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) groups[group] += Number(rss[1]);
  }
  return Object.fromEntries(Object.entries(groups).map(([k, kb]) => [k, Math.round(kb / 1024)]));
}
