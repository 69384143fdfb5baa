// The image hosts of `npm run bench:import`: a loopback server answering each image after a delay (100 ms), in a
// process of its own so the CPU it spends making and sending images is counted apart from the system under test.
// Every row gets its own bytes (a JPEG comment with its tag), so no row is a duplicate of another, made on the fly
// (no 2.6 GB held in memory). Started with `--serve <front.jpg> <back.jpg> <delayMs>`, it tells its parent its port.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The photo with a comment segment after its SOI marker: the same picture, other bytes. */
export function variant(bytes: Buffer, tag: string): Buffer {
  const text = Buffer.from(tag);
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([bytes.subarray(0, 2), segment, text, bytes.subarray(2)]);
}

if (process.argv[2] === '--serve') {
  const [frontPath, backPath, delay] = process.argv.slice(3);
  const photos = { front: readFileSync(frontPath!), back: readFileSync(backPath!) };
  const server = http.createServer((request, response) => {
    const match = /^\/(front|back)\/(\w+)\.jpg$/.exec(request.url ?? '');
    if (!match) return response.writeHead(404).end();
    setTimeout(() => {
      const body = variant(photos[match[1] as 'front' | 'back'], match[2]!);
      response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(body.length) }).end(body);
    }, Number(delay));
  });
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
  process.once('message', () => server.close(() => process.exit(0)));
  process.once('disconnect', () => process.exit(0)); // the bench ended without stopping it
}
