import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardResultSchema, TILT_FRAMES_MAX } from '../../src/contracts/cards.ts';
import { ONE_PHOTO_SURFACE_NOTE } from '../../src/contracts/measurement.ts';
import { renderTiltSequence } from '../../src/vision/synthetic/tilt.ts';
import { routeDatabaseKind } from '../support/database.ts';
import { expectRefused, samplePhoto, startCardsApp, type CardsHarness } from './cards-harness.ts';

// POST /api/grade-card's tilt shot (issue 31): `tiltFrames` file parts after the front, bounded in count, size and
// kind, each broken rule its own 4xx with words that say what to send. (A tilt shot read end to end: the browser
// test test/e2e/tilt-shot.test.ts.)

const jpeg = (bytes: Uint8Array, name = 'frame.jpg') => ({ bytes, type: 'image/jpeg', filename: name });

describe.each([await routeDatabaseKind()])('POST /api/grade-card with tiltFrames on %s', (kind) => {
  let h: CardsHarness;
  let front: Buffer;

  beforeAll(async () => {
    h = await startCardsApp(kind);
    front = await samplePhoto(1);
  });

  afterAll(async () => {
    await h?.close();
  });

  it('grades a front with one angled photo of it as a tilt shot of two frames, and shows its reflected light; without it, says what one photo cannot see', async () => {
    const { frames } = await renderTiltSequence({ card: { borderColor: '#1d3f8f' }, scratches: [{ x: 30, y: 50, lengthMm: 5, angleDeg: 120 }], frames: 2, pxPerMm: 8 }, 33);
    const guest = h.browser();
    const withAngled = cardResultSchema.parse((await guest.grade([['frontImage', jpeg(frames[0]!)], ['tiltFrames', jpeg(frames[1]!)]])).json());
    expect(withAngled.measurements.front.surface.tiltShot).toEqual({ framesSent: 2, framesRegistered: 2, read: true, foil: false, note: null });
    expect(withAngled.measurements.front.quality.subgradeLimits!.surface.notes).toEqual([]);
    expect(withAngled.reflectedLightImageUrl).toMatch(/^\/api\/images\/[0-9a-f]{64}$/);
    const picture = await guest.get(withAngled.reflectedLightImageUrl!);
    expect(picture.headers['content-type']).toBe('image/png');
    const alone = cardResultSchema.parse((await guest.grade([['frontImage', jpeg(frames[0]!)]])).json());
    expect(alone.id).not.toBe(withAngled.id);
    expect(alone.reflectedLightImageUrl).toBeNull();
    expect(alone.measurements.front.quality.subgradeLimits!.surface.notes).toEqual([ONE_PHOTO_SURFACE_NOTE]);
  });

  it(`refuses more than ${TILT_FRAMES_MAX} frames with 400, saying how many it takes`, async () => {
    const frames = Array.from({ length: TILT_FRAMES_MAX + 1 }, (_, i) => ['tiltFrames', jpeg(front.subarray(0, 2000), `f${i}.jpg`)] as [string, ReturnType<typeof jpeg>]);
    const response = await h.browser().grade([['frontImage', jpeg(front)], ...frames]);
    await expectRefused(response, 400, 'too_many_tilt_frames', `Send at most ${TILT_FRAMES_MAX} tilt frames: a couple of seconds of video as stills, or one angled photo.`);
  });

  it('refuses a frame that is not an image with 415', async () => {
    const response = await h.browser().grade([['frontImage', jpeg(front)], ['tiltFrames', { bytes: new TextEncoder().encode('not a picture'), type: 'text/plain', filename: 'notes.txt' }]]);
    await expectRefused(response, 415, 'tilt_frame_not_an_image', /^A tilt frame is not an image: send JPEG/);
  });

  it('refuses a frame over 10 MB with 413', async () => {
    const huge = new Uint8Array(10 * 1024 * 1024 + 1);
    huge.set(front.subarray(0, 16));
    const response = await h.browser().grade([['frontImage', jpeg(front)], ['tiltFrames', jpeg(huge)]]);
    await expectRefused(response, 413, 'tilt_frame_too_large', 'A tilt frame is larger than 10 MB. Send stills of the video, or a smaller angled photo.');
  });
});
