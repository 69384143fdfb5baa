import net from 'node:net';

// Which IP addresses an image URL may lead to. Only public unicast addresses: everything a request
// from inside our network could reach but the user could not (loopback, private ranges, cloud
// metadata on link-local, CGNAT) is refused, and so is everything that is not meant to be routed.

export type AddressKind = 'public' | 'loopback' | 'private' | 'link_local' | 'reserved';

interface Range {
  bytes: number[];
  bits: number;
  kind: Exclude<AddressKind, 'public'>;
}

function range(cidr: string, kind: Range['kind']): Range {
  const [address, bits] = cidr.split('/') as [string, string];
  return { bytes: addressBytes(address), bits: Number(bits), kind };
}

// Checked in order; the first match wins.
const ipv4Ranges: Range[] = [
  range('127.0.0.0/8', 'loopback'),
  range('10.0.0.0/8', 'private'),
  range('172.16.0.0/12', 'private'),
  range('192.168.0.0/16', 'private'),
  range('100.64.0.0/10', 'private'), // carrier-grade NAT, shared address space
  range('169.254.0.0/16', 'link_local'), // includes cloud metadata, 169.254.169.254
  range('0.0.0.0/8', 'reserved'), // "this network"; 0.0.0.0 reaches localhost on Linux
  range('192.0.0.0/24', 'reserved'),
  range('192.0.2.0/24', 'reserved'),
  range('192.88.99.0/24', 'reserved'),
  range('198.18.0.0/15', 'reserved'),
  range('198.51.100.0/24', 'reserved'),
  range('203.0.113.0/24', 'reserved'),
  range('224.0.0.0/4', 'reserved'), // multicast
  range('240.0.0.0/4', 'reserved'), // future use and broadcast
];

const ipv6Ranges: Range[] = [
  range('::1/128', 'loopback'),
  range('fc00::/7', 'private'), // unique local
  range('fe80::/10', 'link_local'),
  range('2001::/23', 'reserved'), // IETF protocol assignments, Teredo among them
  range('2001:db8::/32', 'reserved'),
  range('3fff::/20', 'reserved'),
];
/** Global unicast: every IPv6 address outside it (unspecified, multicast, site-local, IPv4-compatible, …) is reserved. */
const ipv6GlobalUnicast = range('2000::/3', 'reserved');

/** IPv6 ranges that carry an IPv4 address; the embedded address decides. */
const ipv4Carriers: Array<{ range: Range; at: number }> = [
  { range: range('::ffff:0:0/96', 'reserved'), at: 12 }, // IPv4-mapped
  { range: range('64:ff9b::/96', 'reserved'), at: 12 }, // NAT64
  { range: range('2002::/16', 'reserved'), at: 2 }, // 6to4
];

/** The bytes of an IP address in canonical textual form (as `net.isIP` accepts it). */
function addressBytes(address: string): number[] {
  if (net.isIPv4(address)) return address.split('.').map(Number);
  if (!net.isIPv6(address)) throw new Error(`Not an IP address: ${address}`);
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const present = [...groups(head), ...groups(tail)].length;
  const hextets = tail === undefined ? groups(head) : [...groups(head), ...Array<string>(8 - present).fill('0'), ...groups(tail)];
  return hextets.flatMap((h) => {
    const value = parseInt(h, 16);
    return [value >> 8, value & 0xff];
  });
}

function inRange(bytes: number[], { bytes: prefix, bits }: Range): boolean {
  if (bytes.length !== prefix.length) return false;
  for (let i = 0; i < bits; i += 8) {
    const take = Math.min(8, bits - i);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((bytes[i / 8]! & mask) !== (prefix[i / 8]! & mask)) return false;
  }
  return true;
}

function classifyBytes(bytes: number[]): AddressKind {
  if (bytes.length === 4) return ipv4Ranges.find((r) => inRange(bytes, r))?.kind ?? 'public';
  for (const carrier of ipv4Carriers) {
    if (inRange(bytes, carrier.range)) return classifyBytes(bytes.slice(carrier.at, carrier.at + 4));
  }
  const match = ipv6Ranges.find((r) => inRange(bytes, r));
  if (match) return match.kind;
  return inRange(bytes, ipv6GlobalUnicast) ? 'public' : 'reserved';
}

/** What kind of address this is. IPv4 written inside IPv6 (mapped, NAT64, 6to4) counts as that IPv4 address. */
export function classifyAddress(address: string): AddressKind {
  return classifyBytes(addressBytes(address));
}

/** The kind that refuses this address, or null when it may be fetched. */
export function refusedAddressKind(address: string, allowLoopback: boolean): Exclude<AddressKind, 'public'> | null {
  const kind = classifyAddress(address);
  if (kind === 'public' || (kind === 'loopback' && allowLoopback)) return null;
  return kind;
}
