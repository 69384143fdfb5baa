// Run by ocr.test.ts in a child process with network-guard.cjs preloaded: reads one card and prints what it read.
import { createWorker, OEM } from 'tesseract.js';
import { createOcrIdentifier } from '../../src/infra/identification/ocr-identifier.ts';
import { renderNamedCard } from './named-card.ts';

if (process.argv.includes('--tesseract-defaults')) {
  // The control: tesseract.js left to its defaults downloads its language data, and the guard must see that.
  setTimeout(() => process.exit(0), 5_000).unref();
  await createWorker('eng', OEM.LSTM_ONLY, { errorHandler: () => process.exit(0) });
  process.exit(0);
}

const ocr = createOcrIdentifier({ onError: (error) => process.stderr.write(`OCR failed: ${String(error)}\n`) });
const result = await ocr.identify(await renderNamedCard({ name: 'Pikachu', number: '58/102', seed: 7 }));
process.stdout.write(JSON.stringify(result));
await ocr.close();
