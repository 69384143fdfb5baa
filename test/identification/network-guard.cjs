/* global require, process */
/* eslint-disable @typescript-eslint/no-require-imports -- preloaded with --require, so CommonJS */
// Preloaded with --require into a child process: runs in the main thread and in every worker thread
// (tesseract's too), and makes any network use fail loudly and leave a line on stderr.
const net = require('node:net');
const { isMainThread } = require('node:worker_threads');

function refuse(what) {
  process.stderr.write(`NETWORK ATTEMPT: ${what}\n`);
  throw new Error(`network is closed (${what})`);
}
globalThis.fetch = async (url) => refuse(`fetch ${String(url)}`);
net.Socket.prototype.connect = function connect() {
  refuse('socket connect');
};
process.stderr.write(`network guard on (${isMainThread ? 'main thread' : 'worker thread'})\n`);
