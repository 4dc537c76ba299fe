import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * The listening TCP sockets of processes, read from Linux's /proc as `ss -ltnp`
 * does: /proc/net/tcp{,6} names each socket's local address and inode, and
 * /proc/<pid>/fd links each of a process's descriptors to its socket inode.
 */

export interface ListeningSocket {
  /** The local address as text: `127.0.0.1`, `0.0.0.0`, `::`, `::ffff:127.0.0.1`. */
  address: string;
  port: number;
  inode: string;
}

const LISTEN = '0A';

/** The kernel writes each 32-bit word of an address in the host's byte order (little-endian here). */
function wordBytes(hex: string): number[] {
  const bytes: number[] = [];
  for (let word = 0; word < hex.length; word += 8) {
    const chunk = hex.slice(word, word + 8);
    for (let i = 6; i >= 0; i -= 2) bytes.push(parseInt(chunk.slice(i, i + 2), 16));
  }
  return bytes;
}

function addressText(hex: string): string {
  const bytes = wordBytes(hex);
  if (bytes.length === 4) return bytes.join('.');
  const mapped = bytes.slice(0, 10).every((byte) => byte === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (mapped) return `::ffff:${bytes.slice(12).join('.')}`;
  const groups = Array.from({ length: 8 }, (_, i) => ((bytes[2 * i] << 8) | bytes[2 * i + 1]).toString(16));
  return groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::');
}

function listeningIn(file: string): ListeningSocket[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[3] === LISTEN)
    .map((fields) => {
      const [address, port] = fields[1].split(':');
      return { address: addressText(address), port: parseInt(port, 16), inode: fields[9] };
    });
}

const socketInodes = (pid: number): Set<string> => {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode) inodes.add(inode);
    } catch {
      // A descriptor closed while it was listed.
    }
  }
  return inodes;
};

/** Every listening TCP socket of process `pid`, IPv4 and IPv6. */
export function listeningSocketsOf(pid: number): ListeningSocket[] {
  const own = socketInodes(pid);
  return [`/proc/${pid}/net/tcp`, `/proc/${pid}/net/tcp6`].flatMap(listeningIn).filter((socket) => own.has(socket.inode));
}

/** The process that listens on TCP `port`, found as `ss -ltnp` finds it. */
export function processListeningOn(port: number): number {
  const inodes = new Set(['/proc/net/tcp', '/proc/net/tcp6'].flatMap(listeningIn).flatMap((s) => (s.port === port ? [s.inode] : [])));
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if ([...socketInodes(Number(entry))].some((inode) => inodes.has(inode))) return Number(entry);
    } catch {
      // Another user's process, or one that has exited: not ours.
    }
  }
  throw new Error(`No process of this user listens on port ${port}`);
}

/** The command line of process `pid`, its arguments joined by spaces. */
export const commandLineOf = (pid: number): string => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
