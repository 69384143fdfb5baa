// tesseract.js's worker thread (its own script, started by createWorker's workerPath), run below the event loop's
// priority as the CPU pool's threads are (../cpu-pool/thread-priority.ts): reading a card's name is background work
// that no request should wait behind.
import { createRequire } from 'node:module';
import { lowerThisThreadsPriority } from '../cpu-pool/thread-priority.ts';

lowerThisThreadsPriority();
createRequire(import.meta.url)('tesseract.js/src/worker-script/node/index.js');
