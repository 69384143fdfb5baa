import { readFileSync } from 'node:fs';

// The process's open-file limit (issue 34): every connection is a file descriptor, and a process at its limit refuses
// every new connection, healthy ones included (21,000 slow clients did that at a soft limit of 20,000). Node raises
// its soft limit to the hard one itself as it starts (measured: a soft limit of 1,024 under a hard one of 20,000 reads
// 20,000 inside node), so there is nothing left to raise from JavaScript (which has no setrlimit anyway): the API
// respects the limit, taking client connections only up to it less a headroom for what the process itself opens
// (database and Redis connections, image files, worker threads, logs). Beyond that Node closes a new connection at
// once, and the healthy ones already open keep the files they need.

export interface OpenFileLimits {
  soft: number;
  hard: number;
}

/** The soft and hard limits from /proc/self/limits (Linux); null elsewhere. 'unlimited' reads as Infinity. */
export function openFileLimits(): OpenFileLimits | null {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
    const [soft, hard] = (line?.slice('Max open files'.length).trim().split(/\s+/) ?? []).map((v) => (v === 'unlimited' ? Infinity : Number(v)));
    return soft !== undefined && hard !== undefined && Number.isFinite(soft) ? { soft, hard } : null;
  } catch {
    return null;
  }
}

/** Client connections to take at a soft limit of `softLimit`: the rest is the process's own (a tenth, at least 256). */
export function clientConnectionsWithin(softLimit: number): number {
  return Math.max(64, softLimit - Math.max(256, Math.floor(softLimit / 10)));
}
