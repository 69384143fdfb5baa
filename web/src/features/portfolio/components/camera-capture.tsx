import { Camera, RotateCcw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';

type CameraState = { kind: 'starting' } | { kind: 'live' } | { kind: 'failed'; message: string };

/** Why the camera cannot be used, in words a person can act on. */
export function cameraProblem(error: unknown): string {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') {
    return 'Camera access was refused. Allow the camera for this site in your browser settings, or upload photos instead.';
  }
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'NoCameraError') {
    return 'No camera was found on this device. Upload photos or enter the card manually instead.';
  }
  return 'The camera could not be started. Upload photos or enter the card manually instead.';
}

/**
 * Take a photo (SPEC.md §2): the rear camera where there is one, a capture button, retake, the front then the back.
 * Calls onCaptured with the two pictures as JPEG data URLs (the back may be skipped).
 */
export function CameraCapture({ onCaptured, disabled }: { onCaptured: (front: string, back: string | null) => void; disabled: boolean }) {
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<CameraState>({ kind: 'starting' });
  const [front, setFront] = useState<string | null>(null);
  const [back, setBack] = useState<string | null>(null);

  useEffect(() => {
    let stream: MediaStream | undefined;
    let cancelled = false;
    (async () => {
      try {
        if (!navigator.mediaDevices?.getUserMedia) throw Object.assign(new Error('no camera'), { name: 'NoCameraError' });
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: 'environment' }, width: { ideal: 1920 }, height: { ideal: 1080 } }, audio: false });
        if (cancelled) return stream.getTracks().forEach((t) => t.stop());
        if (video.current) {
          video.current.srcObject = stream;
          await video.current.play().catch(() => undefined);
        }
        setState({ kind: 'live' });
      } catch (error) {
        if (!cancelled) setState({ kind: 'failed', message: cameraProblem(error) });
      }
    })();
    return () => {
      cancelled = true;
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, []);

  function capture() {
    const v = video.current;
    if (!v || v.videoWidth === 0) return;
    const canvas = document.createElement('canvas');
    canvas.width = v.videoWidth;
    canvas.height = v.videoHeight;
    canvas.getContext('2d')?.drawImage(v, 0, 0);
    const picture = canvas.toDataURL('image/jpeg', 0.92);
    if (!front) setFront(picture);
    else setBack(picture);
  }

  if (state.kind === 'failed') {
    return (
      <p role="alert" className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
        {state.message}
      </p>
    );
  }

  const step = !front ? 'front' : !back ? 'back' : 'done';
  return (
    <div className="grid gap-3">
      <div className="relative overflow-hidden rounded-lg bg-black">
        <video ref={video} muted playsInline className="aspect-video w-full object-contain" aria-label="Camera preview" />
        {state.kind === 'starting' ? <p className="absolute inset-0 flex items-center justify-center text-sm text-white">Starting the camera…</p> : null}
      </div>
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {step === 'front' ? 'Photograph the front of the card.' : step === 'back' ? 'Now the back of the card (or add it without a back).' : 'Both sides taken.'}
      </p>
      <div className="flex flex-wrap gap-2">
        {front ? <img src={front} alt="Captured front" className="h-24 rounded border object-contain" /> : null}
        {back ? <img src={back} alt="Captured back" className="h-24 rounded border object-contain" /> : null}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="button" onClick={capture} disabled={state.kind !== 'live' || step === 'done' || disabled}>
          <Camera aria-hidden />
          {step === 'back' ? 'Capture Back' : 'Capture Front'}
        </Button>
        {front ? (
          <Button
            type="button"
            variant="outline"
            disabled={disabled}
            onClick={() => {
              if (back) setBack(null);
              else setFront(null);
            }}
          >
            <RotateCcw aria-hidden />
            Retake
          </Button>
        ) : null}
        {front ? (
          <Button
            type="button"
            variant="secondary"
            disabled={disabled}
            onClick={() => {
              onCaptured(front, back);
              setFront(null);
              setBack(null);
            }}
          >
            Analyze &amp; Add
          </Button>
        ) : null}
      </div>
    </div>
  );
}
