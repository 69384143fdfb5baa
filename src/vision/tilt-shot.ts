import type { Defect, SideMeasurement } from '../contracts/measurement.ts';
import { ONE_PHOTO_SURFACE_NOTE } from '../contracts/measurement.ts';
import { annotateDefects } from './annotate.ts';
import type { CardFormat } from './card-formats.ts';
import { round } from './geometry.ts';
import type { DecodedImage } from './image.ts';
import { findTiltDefects } from './tilt-defects.ts';
import { reflectedLight } from './tilt-light.ts';
import type { ReflectedLight } from './tilt-light.ts';
import { registerTiltFrames } from './tilt-register.ts';

// The tilt shot (issue 31): the card tilted slowly under a light, a couple of seconds of frames, or the front and one
// angled photo of it where there is no camera. Registered to the card (tilt-register), read for how the light moves
// (tilt-light), gathered into scratches and dents (tilt-defects), and joined to the front's surface here.

/** Fewer frames showing the card than this and the light's movement cannot be read: the front photo and one angled one. */
export const MIN_TILT_FRAMES = 2;

type TiltShotSummary = NonNullable<SideMeasurement['surface']['tiltShot']>;

export interface TiltReading {
  /** What the result says of the shot (surface.tiltShot). */
  summary: TiltShotSummary;
  defects: Defect[];
  /** The reflected light, for its picture; null when the shot was not read. */
  light: ReflectedLight | null;
}

/**
 * Reads the frames of a tilt shot of a card of the front's `format`. `sent`: how many frames were sent, when some
 * could not even be decoded (they are not in `frames`).
 */
export function readTiltShot(frames: readonly DecodedImage[], format: CardFormat, sent = frames.length): TiltReading {
  const registered = registerTiltFrames(frames, format);
  const found = registered.lightness.length;
  if (found < MIN_TILT_FRAMES) {
    const note = `Tilt shot not read: the card was found in ${found} of its ${sent} frame${sent === 1 ? '' : 's'}, and reading the reflected light needs ${MIN_TILT_FRAMES}. Keep the whole card in the frame while tilting it.`;
    return { summary: { framesSent: sent, framesRegistered: found, read: false, foil: false, note }, defects: [], light: null };
  }
  const light = reflectedLight(registered);
  const { defects, foil } = findTiltDefects(light);
  return { summary: { framesSent: sent, framesRegistered: found, read: true, foil, note: null }, defects, light };
}

/**
 * The front's measurement with what the tilt shot found: its scratches and dents join the surface's (a glint where the
 * photo already showed a scratch is that scratch), and the one-photo note gives way to the shot's own, if any.
 */
export function withTiltShot(measurement: SideMeasurement, reading: Pick<TiltReading, 'summary' | 'defects'>): SideMeasurement {
  const { surface, quality } = measurement;
  const shown = measurement.defects.filter((d) => d.location === 'surface');
  const added = reading.defects.filter((d) => !shown.some((s) => overlaps(s.box, d.box)));
  const scratchMm = added.filter((d) => d.kind === 'scratch').reduce((sum, d) => sum + d.sizeMm, 0);
  const dents = added.filter((d) => d.kind === 'dent').length;
  const limits = quality.subgradeLimits;
  const notes = (limits?.surface.notes ?? []).filter((note) => note !== ONE_PHOTO_SURFACE_NOTE);
  const surfaceNotes = reading.summary.read ? notes : [...notes, ONE_PHOTO_SURFACE_NOTE, reading.summary.note!];
  return {
    ...measurement,
    quality: limits ? { ...quality, subgradeLimits: { ...limits, surface: { ...limits.surface, notes: surfaceNotes } } } : quality,
    surface: { ...surface, scratchLengthMm: round(surface.scratchLengthMm + scratchMm), spotCount: surface.spotCount + dents, tiltShot: reading.summary },
    defects: [...measurement.defects, ...added],
  };
}

/** The card is drawn dimmed to this share of its usual lightness, and what caught the light this many times as bright over it. */
const CARD_DIMMED = 0.35;
const GLINT_GAIN = 3;

/** PNG of the reflected light: the card dimmed, what the light made rise or fall glowing over it, what was found boxed. */
export async function reflectedLightPicture(light: ReflectedLight, defects: readonly Defect[]): Promise<Uint8Array> {
  const data = new Uint8Array(light.width * light.height * 3);
  for (let p = 0; p < light.glint.length; p++) {
    const level = Math.round(Math.min(255, CARD_DIMMED * light.usual[p]! + GLINT_GAIN * Math.max(0, light.glint[p]!)));
    data.fill(level, p * 3, p * 3 + 3);
  }
  return annotateDefects({ data, width: light.width, height: light.height, channels: 3 }, defects, light.pxPerMm);
}

const overlaps = (a: Defect['box'], b: Defect['box']) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
