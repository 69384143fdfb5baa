import { describe, expect, it } from 'vitest';
import { classifyAddress, refusedAddressKind } from '../../src/infra/image-fetch/index.ts';

describe('address policy', () => {
  it.each([
    ['8.8.8.8'],
    ['93.184.216.34'],
    ['1.1.1.1'],
    ['172.15.255.255'], // just below 172.16/12
    ['172.32.0.1'], // just above it
    ['100.63.255.255'], // just below CGNAT
    ['100.128.0.1'], // just above it
    ['169.253.255.255'],
    ['11.0.0.1'],
    ['223.255.255.255'],
    ['2606:4700:4700::1111'],
    ['2a00:1450:4001:82a::200e'],
    ['::ffff:8.8.8.8'],
    ['::ffff:808:808'],
    ['64:ff9b::808:808'], // NAT64 of a public address
    ['2002:808:808::1'], // 6to4 of a public address
  ])('lets public %s through', (address) => {
    expect(classifyAddress(address)).toBe('public');
    expect(refusedAddressKind(address, false)).toBeNull();
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.0.0.5', 'private'],
    ['172.16.0.0', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.255.255', 'private'],
    ['100.64.0.0', 'private'],
    ['100.127.255.255', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.169.254', 'link_local'],
    ['fe80::abcd', 'link_local'],
    ['febf::1', 'link_local'],
    ['0.0.0.0', 'reserved'],
    ['0.1.2.3', 'reserved'],
    ['224.0.0.251', 'reserved'],
    ['239.255.255.250', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['::', 'reserved'],
    ['::7f00:1', 'reserved'],
    ['ff02::fb', 'reserved'],
    ['100::1', 'reserved'],
    ['2001::1', 'reserved'], // Teredo
    ['2001:db8::1', 'reserved'],
  ])('classifies %s as %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
    expect(refusedAddressKind(address, false)).toBe(kind);
  });

  it('opens loopback, and only loopback, when asked', () => {
    expect(refusedAddressKind('127.0.0.1', true)).toBeNull();
    expect(refusedAddressKind('::1', true)).toBeNull();
    expect(refusedAddressKind('::ffff:127.0.0.2', true)).toBeNull();
    expect(refusedAddressKind('10.0.0.5', true)).toBe('private');
    expect(refusedAddressKind('169.254.169.254', true)).toBe('link_local');
    expect(refusedAddressKind('0.0.0.0', true)).toBe('reserved');
  });
});
