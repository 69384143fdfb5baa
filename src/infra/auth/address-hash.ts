import { createHmac } from 'node:crypto';

// The client address a refused sign-in records for the audit trail (SignInRefused.addressHash): a keyed HMAC with a
// key of the day, never the address, nor an unsalted hash of it (2^32 IPv4 addresses are all tried in seconds).
// Attempts from one address share a hash within a UTC day and cannot be linked across days.

const HASH_HEX_CHARS = 32;

/** `hash(address, at)`: hex, 128 bits of HMAC-SHA256 under the day's key (an HMAC of `secret` and the UTC date). */
export function createAddressHasher(secret: () => Promise<Buffer>): (address: string, at: Date) => Promise<string> {
  const dayKeys = new Map<string, Buffer>();
  return async (address, at) => {
    const day = at.toISOString().slice(0, 10);
    let key = dayKeys.get(day);
    if (!key) {
      key = createHmac('sha256', await secret()).update(`sign-in-refused:${day}`).digest();
      dayKeys.clear(); // one day's key at a time
      dayKeys.set(day, key);
    }
    return createHmac('sha256', key).update(address).digest('hex').slice(0, HASH_HEX_CHARS);
  };
}
