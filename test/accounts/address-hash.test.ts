import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createAddressHasher } from '../../src/infra/auth/address-hash.ts';

// Issue 34: a refused sign-in keeps a keyed HMAC of the client address with a key of the day, not an unsalted SHA-256
// (reversible by trying every IPv4 address).

describe('the address hash of a refused sign-in', () => {
  const secret = Buffer.from('a server secret of at least thirty-two characters');
  const hash = createAddressHasher(async () => secret);
  const morning = new Date('2026-11-27T08:00:00Z');
  const evening = new Date('2026-11-27T23:59:59Z');
  const nextDay = new Date('2026-11-28T00:00:01Z');

  it('tells one address apart within a day, and never links it across days', async () => {
    expect(await hash('203.0.113.7', morning)).toBe(await hash('203.0.113.7', evening));
    expect(await hash('203.0.113.7', morning)).not.toBe(await hash('203.0.113.8', morning));
    expect(await hash('203.0.113.7', nextDay)).not.toBe(await hash('203.0.113.7', evening));
    expect(await hash('203.0.113.7', morning)).toMatch(/^[0-9a-f]{32}$/);
  });

  it('needs the secret: another secret gives other hashes, and no unsalted SHA-256 matches', async () => {
    const other = createAddressHasher(async () => Buffer.from('another server secret, thirty-two characters or more'));
    expect(await other('203.0.113.7', morning)).not.toBe(await hash('203.0.113.7', morning));
    expect(createHash('sha256').update('203.0.113.7').digest('hex')).not.toContain(await hash('203.0.113.7', morning));
  });
});
