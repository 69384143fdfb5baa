import { type RefObject, useEffect, useRef, useState } from 'react';
import { type CaptureSize, checkFrame, checkSize, type FrameHint, type Rect } from './frame-check';

const CHECK_EVERY_MS = 120;
/** A slow device checks less often: the check never takes more than about a quarter of the main thread. */
const MAX_BUSY_SHARE = 0.25;
/** How many checks in a row must find the card ready before the photo is taken by itself (about half a second). */
const READY_CHECKS = 4;
/** A hint shown must hold for this many checks before it replaces the one before (no flicker, no chatter). */
const HINT_CHECKS = 3;

export type FrameCheckState = {
  hint: FrameHint | null;
  /** The card as found, as shares of the frame (for drawing), or null. */
  card: Rect | null;
  /** The card's pixels per millimetre in the photo that will be taken (0 without a card). */
  pxPerMm: number;
  /** Mean time of one check, in milliseconds: the pixel check alone, and with copying the frame down to its size. */
  meanMs: number;
  meanFrameMs: number;
};

/**
 * Runs the frame check on the live video a few times a second while `active` (judging the card's size at
 * `captureSize`, the photo's, once known), and calls `onSteady` once the card
 * has been ready for READY_CHECKS checks in a row. After that it waits until the card has left the guide (turned
 * over, or another card) before it calls again.
 */
export function useFrameCheck(video: RefObject<HTMLVideoElement | null>, captureSize: CaptureSize | null, active: boolean, onSteady: () => void): FrameCheckState {
  const [state, setState] = useState<FrameCheckState>({ hint: null, card: null, pxPerMm: 0, meanMs: 0, meanFrameMs: 0 });
  const steadyRef = useRef(onSteady);
  steadyRef.current = onSteady;
  // Kept across pauses: a card already taken is not taken again until it has left the guide.
  const armed = useRef(true);

  useEffect(() => {
    if (!active || !captureSize) {
      setState((s) => ({ ...s, hint: null, card: null, pxPerMm: 0 }));
      return;
    }
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('2d', { willReadFrequently: true });
    let previous: Rect | null = null;
    let ready = 0;
    let shown: FrameHint | null = null;
    let candidate: FrameHint | null = null;
    let candidateCount = 0;
    let checks = 0;
    let totalMs = 0;
    let totalFrameMs = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastMs = 0;
    const schedule = () => {
      timer = setTimeout(tick, Math.max(CHECK_EVERY_MS, lastMs / MAX_BUSY_SHARE - lastMs));
    };
    const tick = () => {
      const v = video.current;
      if (!context || !v || v.videoWidth === 0 || v.readyState < 2 || document.hidden) {
        schedule();
        return;
      }
      const started = performance.now();
      const { width, height } = checkSize(v.videoWidth, v.videoHeight);
      if (canvas.width !== width || canvas.height !== height) {
        canvas.width = width;
        canvas.height = height;
      }
      context.drawImage(v, 0, 0, width, height);
      const pixels = context.getImageData(0, 0, width, height);
      const copied = performance.now();
      const result = checkFrame(pixels, previous, captureSize);
      const done = performance.now();
      totalMs += done - copied;
      totalFrameMs += done - started;
      lastMs = done - started;
      checks++;
      previous = result.card;
      if (result.hint === 'place') armed.current = true;
      ready = result.hint === 'ready' ? ready + 1 : 0;
      if (result.hint === candidate) candidateCount++;
      else {
        candidate = result.hint;
        candidateCount = 1;
      }
      if (candidateCount >= HINT_CHECKS || shown === null) shown = candidate;
      const card = result.card && { left: result.card.left / width, top: result.card.top / height, right: result.card.right / width, bottom: result.card.bottom / height };
      setState({ hint: shown, card, pxPerMm: result.pxPerMm, meanMs: totalMs / checks, meanFrameMs: totalFrameMs / checks });
      if (armed.current && ready >= READY_CHECKS) {
        armed.current = false;
        ready = 0;
        steadyRef.current();
      }
      schedule();
    };
    schedule();
    return () => clearTimeout(timer);
  }, [active, captureSize, video]);

  return state;
}
