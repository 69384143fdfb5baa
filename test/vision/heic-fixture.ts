import { readFile } from 'node:fs/promises';
import type { SyntheticCardSpec } from '../../src/vision/index.ts';

// test/fixtures/card.heic: the card below, rendered as a PNG by renderSyntheticCard and encoded once with libheif's
// own encoder (x265), as an iPhone's photo is HEVC in HEIF, by
//   heif-enc -q 50 -o test/fixtures/card.heic card.png   (Debian's libheif-examples 1.15.1; 101 KB)
// sharp's libvips encodes AVIF but not HEVC, so the file is committed; the PNG is not: the same spec and seed draw the same bytes.

/** A 1.6-MP photo (1126 × 1408), the card at 12 px/mm, off-centre left-right (3.6 / 2.4 mm) and a corner whitened 1.5 mm. */
export const HEIC_CARD: SyntheticCardSpec = {
  pxPerMm: 12,
  borders: { leftMm: 3.6, rightMm: 2.4, topMm: 3, bottomMm: 3 },
  defects: [{ kind: 'whitened-corner', corner: 'topLeft', lengthMm: 1.5 }],
  photo: { noise: 3, format: 'png' },
};
export const HEIC_CARD_SEED = 7;

export const HEIC_FIXTURE = new URL('../fixtures/card.heic', import.meta.url);

export const heicFixture = (): Promise<Buffer> => readFile(HEIC_FIXTURE);

/**
 * The HEIC turned as an iPhone turns a portrait photo: an `irot` property (quarter turns anticlockwise) added to its
 * one image, the pixels left as they are, so a reader must apply it. heif-enc 1.15 cannot write one. Written for
 * this fixture's layout (one item; ipma and iloc version 0, 4-byte offsets), which it checks.
 */
export function withRotation(heic: Buffer, quarterTurns: 1 | 2 | 3): Buffer {
  const box = (at: number) => ({ size: heic.readUInt32BE(at), type: heic.toString('latin1', at + 4, at + 8) });
  const children = (start: number, end: number) => {
    const found = new Map<string, number>();
    for (let at = start; at < end; at += box(at).size) found.set(box(at).type, at);
    return found;
  };
  const meta = children(0, heic.length).get('meta')!;
  const inMeta = children(meta + 12, meta + box(meta).size);
  const [iloc, iprp] = [inMeta.get('iloc')!, inMeta.get('iprp')!];
  const inIprp = children(iprp + 8, iprp + box(iprp).size);
  const [ipco, ipma] = [inIprp.get('ipco')!, inIprp.get('ipma')!];
  const oneItem = heic.readUInt32BE(ipma + 12) === 1 && heic.readUInt16BE(iloc + 14) === 1 && heic.readUInt16BE(iloc + 24) === 1;
  if (!oneItem || heic[ipma + 8] !== 0 || (heic[ipma + 11]! & 1) !== 0 || heic[iloc + 8] !== 0 || heic[iloc + 12] !== 0x44 || heic[iloc + 13] !== 0x40) {
    throw new Error('not the layout withRotation was written for');
  }
  const irot = Buffer.from([0, 0, 0, 9, ...Buffer.from('irot'), quarterTurns]);
  const properties = children(ipco + 8, ipco + box(ipco).size).size;
  const associations = heic[ipma + 18]!;
  const ipmaEnd = ipma + 19 + associations;
  // The new property, essential (high bit), by its 1-based index in ipco.
  const out = Buffer.concat([heic.subarray(0, ipma), irot, heic.subarray(ipma, ipmaEnd), Buffer.from([0x80 | (properties + 1)]), heic.subarray(ipmaEnd)]);
  const added = irot.length + 1;
  out.writeUInt32BE(box(meta).size + added, meta);
  out.writeUInt32BE(box(iprp).size + added, iprp);
  out.writeUInt32BE(box(ipco).size + irot.length, ipco);
  out.writeUInt32BE(box(ipma).size + 1, ipma + irot.length);
  out[ipma + irot.length + 18] = associations + 1;
  // The picture's bytes moved by what was added before them: its extent's file offset too (base offset 0).
  const extentOffset = iloc + 26; // after item_ID, data_reference_index, base_offset and extent_count
  out.writeUInt32BE(heic.readUInt32BE(extentOffset) + added, extentOffset);
  return out;
}
