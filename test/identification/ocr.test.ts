import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { identificationSchema } from '../../src/contracts/grading.ts';
import { createOcrIdentifier } from '../../src/infra/identification/ocr-identifier.ts';
import { collectorNumberFromText, nameFromWords, regulationMarkFromText } from '../../src/infra/identification/ocr-text.ts';
import { renderNamedCard, TEST_CARDS } from './named-card.ts';

const run = promisify(execFile);
const here = path.dirname(new URL(import.meta.url).pathname);
const ocr = createOcrIdentifier();
afterAll(() => ocr.close());

describe('offline OCR of the name band and the collector number', () => {
  it('reads the name and number of every test card', async () => {
    const misread: string[] = [];
    const pictures = await Promise.all(TEST_CARDS.map(renderNamedCard));
    for (const [i, card] of TEST_CARDS.entries()) {
      const read = await ocr.readCard(pictures[i]!);
      if (read.name !== card.name) misread.push(`name ${card.name} read as ${read.name}`);
      if (read.number !== card.number) misread.push(`number ${card.number} read as ${read.number}`);
    }
    console.log(`OCR on ${TEST_CARDS.length} test cards: ${2 * TEST_CARDS.length - misread.length}/${2 * TEST_CARDS.length} fields exact`, misread);
    // Deterministic on one machine; one slip allowed for a CPU whose WASM SIMD rounds differently.
    expect(misread.length).toBeLessThanOrEqual(1);
  });

  it('identifies as OCR, and the same pixels give the same answer', async () => {
    const picture = await renderNamedCard({ name: "Farfetch'd", number: '27/102', seed: 3 });
    const first = await ocr.identify(picture);
    expect(identificationSchema.parse(first)).toEqual(first);
    expect(first).toMatchObject({ source: 'ocr', cardName: "Farfetch'd", cardNumber: '27/102', estimatedValue: null });
    expect(JSON.stringify(await ocr.identify(picture))).toBe(JSON.stringify(first));
  });

  it('finds the band without a measured frame, and with a frame half a millimetre off', async () => {
    const picture = await renderNamedCard({ name: 'Gyarados', number: '6/102', seed: 9 });
    const { innerFrame: _frame, ...withoutFrame } = picture;
    expect((await ocr.readCard(withoutFrame)).name).toBe('Gyarados');
    const shifted = { ...picture, innerFrame: { left: 3.5, right: 59.5, top: 2.5, bottom: 85.5 } };
    expect(await ocr.readCard(shifted)).toEqual({ name: 'Gyarados', number: '6/102' });
  });

  it('says nothing rather than something made up when there is no lettering', async () => {
    const picture = await renderNamedCard({ name: '', number: '', seed: 5 });
    expect(await ocr.identify(picture)).toMatchObject({ source: 'none', cardName: null, cardNumber: null });
  });

  it('fetches nothing: with every network call refused in every thread, it still reads the card', async () => {
    const guard = path.join(here, 'network-guard.cjs');
    const child = path.join(here, 'ocr-offline-child.ts');
    const { stdout, stderr } = await run(process.execPath, ['--require', guard, child], { timeout: 30_000 });
    expect(stderr).toContain('network guard on (worker thread)'); // the guard reached tesseract's thread
    expect(stderr).not.toContain('NETWORK ATTEMPT');
    expect(JSON.parse(stdout)).toMatchObject({ source: 'ocr', cardName: 'Pikachu', cardNumber: '58/102' });

    // The control: tesseract.js on its defaults would download, and the guard sees it.
    const control = await run(process.execPath, ['--require', guard, child, '--tesseract-defaults'], { timeout: 30_000 });
    expect(control.stderr).toMatch(/NETWORK ATTEMPT: fetch https:\/\/cdn\.jsdelivr\.net/);
  });

  it('answers without a name, and does not crash, when the language data is missing', async () => {
    const errors: unknown[] = [];
    const broken = createOcrIdentifier({ langPath: path.join(here, 'no-such-dir'), onError: (e) => errors.push(e) });
    const picture = await renderNamedCard({ name: 'Pikachu', number: '58/102' });
    expect(await broken.identify(picture)).toMatchObject({ source: 'none', cardName: null });
    expect(String(errors[0])).toContain('OCR language data not found');
    await broken.close();
  });
});

describe('reading a name and a number out of OCR text', () => {
  const word = (text: string, height: number, line = 0, confidence = 90) => ({ text, height, line, confidence });

  it('takes the tallest confident lettering on its line, without HP', () => {
    expect(nameFromWords([word('Pikachu', 60), word('60', 35), word('HP', 35)])).toBe('Pikachu');
    expect(nameFromWords([word('STAGE', 20, 0), word('1', 20, 0), word('Mr.', 58, 1), word('Mime', 60, 1), word('90', 36, 1)])).toBe('Mr. Mime');
    expect(nameFromWords([word('|Charizard|', 60)])).toBe('Charizard');
    expect(nameFromWords([word('Mew', 60, 0, 30), word('ZZ', 60, 0)])).toBeNull();
    expect(nameFromWords([])).toBeNull();
  });

  it('finds the collector number in its usual forms', () => {
    expect(collectorNumberFromText('Illus. Mitsuhiro Arita 58/102')).toBe('58/102');
    expect(collectorNumberFromText('Illus. 5ban 058 / 198 ●')).toBe('058/198');
    expect(collectorNumberFromText('TG12/TG30')).toBe('TG12/TG30');
    expect(collectorNumberFromText('LOB-EN001 1st Edition')).toBe('LOB-EN001');
    expect(collectorNumberFromText('SWSH050 promo')).toBe('SWSH050');
    expect(collectorNumberFromText('Illus. Ken Sugimori')).toBeNull();
  });

  it('finds the regulation mark just before the set code and number, and nothing in a plain line', () => {
    expect(regulationMarkFromText('Illus. 5ban Graphics\nG SVI EN 065/198')).toBe('G');
    expect(regulationMarkFromText('E 030/203 ★')).toBe('E');
    expect(regulationMarkFromText('|\n\nJTG EN 113/159')).toBe('I'); // an I in its box reads as a bar
    expect(regulationMarkFromText('Illus. Mitsuhiro Arita 58/102')).toBeNull();
    expect(regulationMarkFromText('A SVI EN 065/198')).toBeNull(); // not a mark
    expect(regulationMarkFromText('G SVI EN')).toBeNull();
  });
});
