import { Camera, Flashlight, FlashlightOff, ImagePlus, RotateCcw, SkipForward, SwitchCamera, Video } from 'lucide-react';
import { type ReactNode, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { PhotoPreview } from '@/components/ui/photo-preview';
import { cn } from '@/lib/utils';
import { IMAGE_ACCEPT_ATTRIBUTE } from '@contracts/image-formats';
import { GUIDE_HEIGHT, HINT_TEXT } from './frame-check';
import { useCamera } from './use-camera';
import { useFrameCheck } from './use-frame-check';

export type CardSide = 'front' | 'back';
/** `tilt`: the tilt shot's frames; null until recorded or skipped (skipped: none); absent where none is taken. */
export type CameraPhotos = { front: File | null; back: File | null; tilt?: File[] | null };

/** The tilt shot (issue 31): about two seconds of the card tilted under a light, as this many stills this far apart. */
const TILT_FRAMES = 8;
const TILT_EVERY_MS = 250;
export const TILT_TEXT = 'Tilt the card slowly under a light.';

const SIDE_LABEL: Record<CardSide, string> = { front: 'Front', back: 'Back' };

function photoFile(blob: Blob, side: CardSide): File {
  const type = blob.type || 'image/jpeg';
  const extension = type === 'image/png' ? 'png' : type === 'image/webp' ? 'webp' : 'jpg';
  return new File([blob], `camera-${side}.${extension}`, { type, lastModified: Date.now() });
}

/**
 * The camera with a card-shaped guide (63:88, 80% of the view's height): the front, a tilt shot of it (optional: two
 * seconds of the card tilted under a light, from which scratches are read), then the back. A light check
 * on each frame says what to fix (Move closer, Hold still, Tilt to remove the glare) and, with `autoCapture`, takes
 * the photo by itself once the card is steady in the guide; the shutter button takes it at any time. Retake, switch
 * camera and the torch where the device has them. Without a camera (or with access refused): a sentence saying so and
 * a file picker that opens the phone's camera app.
 */
export function CardCamera({
  photos,
  onPhoto,
  onTilt,
  autoCapture = true,
  disabled = false,
  children,
}: {
  photos: CameraPhotos;
  onPhoto: (side: CardSide, file: File | null) => void;
  /** The tilt shot's frames, [] when skipped, null to take it again. Without it no tilt shot is offered. */
  onTilt?: (frames: File[] | null) => void;
  autoCapture?: boolean;
  disabled?: boolean;
  /** What comes after the photos (the consumer's own buttons). */
  children?: ReactNode;
}) {
  const video = useRef<HTMLVideoElement>(null);
  const camera = useCamera(video);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [aspect, setAspect] = useState(4 / 3);
  const step: CardSide | 'tilt' | 'done' = !photos.front ? 'front' : onTilt && !photos.tilt ? 'tilt' : !photos.back ? 'back' : 'done';
  const live = camera.status.kind === 'live';

  async function recordTilt() {
    if (busy || disabled || step !== 'tilt' || !live) return;
    setBusy(true);
    setProblem(null);
    try {
      const frames = await camera.recordFrames(TILT_FRAMES, TILT_EVERY_MS);
      onTilt?.(frames.map((blob, index) => new File([blob], `tilt-${index + 1}.jpg`, { type: blob.type || 'image/jpeg', lastModified: Date.now() })));
    } catch {
      setProblem('The tilt shot could not be recorded. Try again, or skip it.');
    } finally {
      setBusy(false);
    }
  }

  async function capture() {
    if (busy || disabled || step === 'done' || step === 'tilt' || !live) return;
    const side = step;
    setBusy(true);
    setProblem(null);
    try {
      onPhoto(side, photoFile(await camera.takePhoto(), side));
    } catch {
      setProblem('The photo could not be taken. Try again, or choose a photo instead.');
    } finally {
      setBusy(false);
    }
  }

  // The guide keeps finding the card at the tilt step too, so it shows whether the card is in frame; only a front or
  // back is taken by itself when steady (capture() ignores the tilt step). While the tilt is recorded it rests: its
  // stills are taken on a steady beat, which the check's own work on the same thread would put out of step.
  const recordingTilt = step === 'tilt' && busy;
  const check = useFrameCheck(video, camera.captureSize, live && step !== 'done' && !recordingTilt && !disabled, () => {
    if (autoCapture) void capture();
  });

  const stepText =
    step === 'front'
      ? 'Photograph the front of the card.'
      : step === 'tilt'
        ? `Front taken. ${TILT_TEXT} Two seconds of it show scratches a flat photo misses (optional).`
        : step === 'back'
        ? 'Front taken. Now the back of the card (optional).'
        : 'Both sides taken.';
  const hintText = busy ? (step === 'tilt' ? 'Recording: keep tilting the card…' : 'Taking the photo…') : step === 'tilt' ? '' : check.hint ? HINT_TEXT[check.hint] : '';

  const taken = (
    <>
      {photos.front || photos.back ? (
        <ul className="flex flex-wrap gap-3" aria-label="Photos taken">
          {(['front', 'back'] as const).map((side) =>
            photos[side] ? (
              <li key={side} className="grid justify-items-center gap-1.5">
                <PhotoPreview file={photos[side]} alt={`Captured ${side}`} className="h-28 w-20" />
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  disabled={disabled || busy}
                  onClick={() => {
                    onPhoto(side, null);
                    // The tilt shot is of the front: a new front takes a new one.
                    if (side === 'front') onTilt?.(null);
                  }}
                >
                  <RotateCcw aria-hidden />
                  Retake {side}
                </Button>
              </li>
            ) : null,
          )}
          {photos.tilt && photos.tilt.length > 0 ? (
            <li className="grid content-end justify-items-center gap-1.5">
              <p className="flex h-28 w-20 items-center justify-center rounded-md border text-center text-xs text-muted-foreground">Tilt shot: {photos.tilt.length} frames</p>
              <Button type="button" variant="outline" size="sm" disabled={disabled || busy} onClick={() => onTilt?.(null)}>
                <RotateCcw aria-hidden />
                Retake tilt
              </Button>
            </li>
          ) : null}
        </ul>
      ) : null}
      {children}
    </>
  );

  if (camera.status.kind === 'failed') {
    return (
      <div className="grid gap-3">
        <p role="alert" className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          {camera.status.message}
        </p>
        {step === 'front' || step === 'back' ? <PhotoPicker side={step} disabled={disabled} onPick={(file) => onPhoto(step, file)} /> : null}
        {step === 'tilt' ? (
          <Button type="button" variant="outline" className="w-fit" disabled={disabled} onClick={() => onTilt?.([])}>
            <SkipForward aria-hidden />
            Skip tilt
          </Button>
        ) : null}
        {taken}
      </div>
    );
  }

  return (
    <div className="grid gap-3" role="group" aria-label="Camera">
      <div
        className="relative mx-auto overflow-hidden rounded-xl bg-black"
        style={{ aspectRatio: aspect, width: `min(100%, calc(65vh * ${aspect}))` }}
        data-testid="camera-view"
        data-hint={check.hint ?? ''}
        data-capture-width={camera.captureSize?.width ?? ''}
        data-capture-height={camera.captureSize?.height ?? ''}
        data-px-per-mm={check.pxPerMm.toFixed(2)}
        data-check-ms={check.meanMs.toFixed(3)}
        data-frame-ms={check.meanFrameMs.toFixed(3)}
      >
        <video
          ref={video}
          muted
          playsInline
          aria-label="Camera preview"
          className="absolute inset-0 size-full object-cover"
          onLoadedMetadata={(event) => {
            const { videoWidth, videoHeight } = event.currentTarget;
            if (videoWidth > 0 && videoHeight > 0) setAspect(videoWidth / videoHeight);
          }}
        />
        {/* The guide: a card's shape, 80% of the view's height, in the middle. */}
        <div
          aria-hidden
          className={cn(
            'pointer-events-none absolute top-1/2 left-1/2 aspect-[63/88] -translate-x-1/2 -translate-y-1/2 rounded-[5%] border-[3px] shadow-[0_0_0_100vmax_rgb(0_0_0/0.35)] transition-colors',
            check.hint === 'ready' || busy ? 'border-emerald-400' : 'border-dashed border-white/90',
          )}
          style={{ height: `${GUIDE_HEIGHT * 100}%` }}
        />
        {camera.status.kind === 'starting' ? (
          <p className="absolute inset-0 flex items-center justify-center text-sm text-white">Starting the camera…</p>
        ) : hintText ? (
          <p aria-hidden className="absolute inset-x-0 bottom-3 mx-auto w-fit max-w-[90%] rounded-full bg-black/75 px-3 py-1 text-center text-sm font-medium text-white">
            {hintText}
          </p>
        ) : null}
      </div>
      <p role="status" className="text-sm text-muted-foreground">
        {stepText}
        {hintText ? <span className="font-medium text-foreground"> {hintText}</span> : null}
      </p>
      {problem ? (
        <p role="alert" className="text-sm text-destructive">
          {problem}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {step === 'tilt' ? (
          <>
            <Button type="button" onClick={() => void recordTilt()} disabled={!live || busy || disabled}>
              <Video aria-hidden />
              Record Tilt
            </Button>
            <Button type="button" variant="outline" onClick={() => onTilt?.([])} disabled={busy || disabled}>
              <SkipForward aria-hidden />
              Skip tilt
            </Button>
          </>
        ) : (
          <Button type="button" onClick={() => void capture()} disabled={!live || busy || step === 'done' || disabled}>
            <Camera aria-hidden />
            {step === 'back' ? 'Capture Back' : 'Capture Front'}
          </Button>
        )}
        {camera.canSwitch ? (
          <Button type="button" variant="outline" onClick={camera.switchCamera} disabled={busy}>
            <SwitchCamera aria-hidden />
            Switch camera
          </Button>
        ) : null}
        {camera.torch.available ? (
          <Button type="button" variant="outline" aria-pressed={camera.torch.on} onClick={() => void camera.toggleTorch()}>
            {camera.torch.on ? <FlashlightOff aria-hidden /> : <Flashlight aria-hidden />}
            Torch
          </Button>
        ) : null}
      </div>
      {taken}
    </div>
  );
}

/** The file picker that stands in for the camera: on a phone, `capture` opens its camera app. */
function PhotoPicker({ side, disabled, onPick }: { side: CardSide; disabled: boolean; onPick: (file: File) => void }) {
  const id = `camera-fallback-${side}`;
  return (
    <div>
      <input
        id={id}
        type="file"
        accept={IMAGE_ACCEPT_ATTRIBUTE}
        capture="environment"
        className="peer sr-only"
        disabled={disabled}
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) onPick(file);
          event.target.value = '';
        }}
      />
      <label
        htmlFor={id}
        className="inline-flex h-9 cursor-pointer items-center gap-2 rounded-md border bg-background px-4 text-sm font-medium shadow-xs hover:bg-accent peer-focus-visible:ring-2 peer-focus-visible:ring-ring"
      >
        <ImagePlus className="size-4" aria-hidden />
        Take or choose a photo of the {SIDE_LABEL[side].toLowerCase()}
      </label>
    </div>
  );
}
