import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import type { CaptureSize } from './frame-check';

export type CameraStatus = { kind: 'starting' } | { kind: 'live' } | { kind: 'failed'; message: string };

/**
 * Why the camera cannot be used, in words a person can act on. It offers only what is always there below it, a
 * photo taken with the phone's camera app or chosen from files (not a manual entry, which the grade screen has not).
 */
export function cameraProblem(error: unknown): string {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') {
    return 'Camera access was refused. Allow the camera for this site in your browser settings, or take or choose a photo below instead.';
  }
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'NoCameraError') {
    return 'No camera was found on this device. Take or choose a photo below instead.';
  }
  return 'The camera could not be started. Take or choose a photo below instead.';
}

// ImageCapture is in Chromium and Android browsers, not in TypeScript's DOM types.
type PhotoRange = { max?: number };
type ImageCaptureLike = {
  takePhoto: (settings?: { imageWidth?: number; imageHeight?: number }) => Promise<Blob>;
  getPhotoCapabilities?: () => Promise<{ imageWidth?: PhotoRange; imageHeight?: PhotoRange }>;
};
type ImageCaptureConstructor = new (track: MediaStreamTrack) => ImageCaptureLike;
type TorchCapabilities = MediaTrackCapabilities & { torch?: boolean };

const PHOTO_TIMEOUT_MS = 4000;

/** The size of the stream's frames: what the track says it gives, else what the video shows. */
function streamSize(track: MediaStreamTrack | null, video: HTMLVideoElement | null): CaptureSize | null {
  const settings = track?.getSettings?.() ?? {};
  if (settings.width && settings.height) return { width: settings.width, height: settings.height };
  if (video && video.videoWidth > 0) return { width: video.videoWidth, height: video.videoHeight };
  return null;
}

/** A photo's size in pixels, upright as the page would draw it. */
async function photoSize(blob: Blob): Promise<CaptureSize | null> {
  try {
    const bitmap = await createImageBitmap(blob);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    return null;
  }
}

/** The camera's largest still photo, asked for by size; the size it offers is not always the one it defaults to. */
async function stillPhoto(capture: ImageCaptureLike): Promise<Blob> {
  const capabilities = await capture.getPhotoCapabilities?.().catch(() => undefined);
  const imageWidth = capabilities?.imageWidth?.max;
  return capture.takePhoto(imageWidth ? { imageWidth } : undefined).catch(() => capture.takePhoto());
}

/** The largest frame the stream gives, as a JPEG. */
function grabFrame(video: HTMLVideoElement): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  canvas.getContext('2d')?.drawImage(video, 0, 0);
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('no frame'))), 'image/jpeg', 0.92));
}

/**
 * A camera stream on `video`: the rear camera where there is one, at the largest resolution it offers; switch
 * between cameras, the torch where the camera has one, and a photo at the camera's full resolution
 * (ImageCapture.takePhoto where present, else the largest frame of the stream). `captureSize` is the stream's frame
 * size, which a photo is never smaller than (a still photo smaller than the stream is replaced by a frame): the
 * guide judges "close enough" at that size, so it never promises more pixels than the photo will have. `recordFrames`:
 * stills of the stream a few hundred milliseconds apart (the tilt shot's).
 */
export function useCamera(video: RefObject<HTMLVideoElement | null>) {
  const [status, setStatus] = useState<CameraStatus>({ kind: 'starting' });
  const [cameras, setCameras] = useState<MediaDeviceInfo[]>([]);
  const [deviceId, setDeviceId] = useState<string | null>(null);
  const [torch, setTorch] = useState<{ available: boolean; on: boolean }>({ available: false, on: false });
  const [captureSize, setCaptureSize] = useState<CaptureSize | null>(null);
  const track = useRef<MediaStreamTrack | null>(null);

  useEffect(() => {
    let stream: MediaStream | undefined;
    let cancelled = false;
    setStatus({ kind: 'starting' });
    (async () => {
      try {
        if (!navigator.mediaDevices?.getUserMedia) throw Object.assign(new Error('no camera'), { name: 'NoCameraError' });
        const size = { width: { ideal: 4096 }, height: { ideal: 4096 } };
        stream = await navigator.mediaDevices.getUserMedia({
          video: deviceId ? { deviceId: { exact: deviceId }, ...size } : { facingMode: { ideal: 'environment' }, ...size },
          audio: false,
        });
        if (cancelled) {
          stream.getTracks().forEach((t) => t.stop());
          return;
        }
        const [videoTrack] = stream.getVideoTracks();
        track.current = videoTrack ?? null;
        const capabilities = (videoTrack?.getCapabilities?.() ?? {}) as TorchCapabilities;
        setTorch({ available: capabilities.torch === true, on: false });
        if (video.current) {
          video.current.srcObject = stream;
          await video.current.play().catch(() => undefined);
        }
        // Labels and the full list come once permission is given.
        const devices = await navigator.mediaDevices.enumerateDevices().catch(() => []);
        if (!cancelled) setCameras(devices.filter((d) => d.kind === 'videoinput'));
        if (!cancelled) setCaptureSize(streamSize(track.current, video.current));
        if (!cancelled) setStatus({ kind: 'live' });
      } catch (error) {
        if (!cancelled) setStatus({ kind: 'failed', message: cameraProblem(error) });
      }
    })();
    return () => {
      cancelled = true;
      track.current = null;
      setCaptureSize(null);
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, [deviceId, video]);

  const switchCamera = useCallback(() => {
    if (cameras.length < 2) return;
    const current = track.current?.getSettings().deviceId ?? deviceId;
    const index = cameras.findIndex((c) => c.deviceId === current);
    setDeviceId(cameras[(index + 1) % cameras.length]!.deviceId);
  }, [cameras, deviceId]);

  const toggleTorch = useCallback(async () => {
    const on = !torch.on;
    try {
      await track.current?.applyConstraints({ advanced: [{ torch: on } as MediaTrackConstraintSet] });
      setTorch({ available: true, on });
    } catch {
      setTorch({ available: false, on: false });
    }
  }, [torch.on]);

  const takePhoto = useCallback(async (): Promise<Blob> => {
    const v = video.current;
    const t = track.current;
    const Capture = (window as unknown as { ImageCapture?: ImageCaptureConstructor }).ImageCapture;
    if (Capture && t && t.readyState === 'live') {
      try {
        const photo = await Promise.race([
          stillPhoto(new Capture(t)),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error('takePhoto timed out')), PHOTO_TIMEOUT_MS)),
        ]);
        const stream = streamSize(t, v);
        const size = photo.size > 0 ? await photoSize(photo) : null;
        if (size && (!stream || Math.max(size.width, size.height) >= Math.max(stream.width, stream.height))) return photo;
      } catch {
        // Some cameras refuse photos while streaming, or give them smaller than the stream: the largest frame instead.
      }
    }
    if (!v || v.videoWidth === 0) throw new Error('The camera has no picture yet.');
    return grabFrame(v);
  }, [video]);

  const recordFrames = useCallback(async (count: number, everyMs: number): Promise<Blob[]> => {
    const frames: Blob[] = [];
    const started = performance.now();
    for (let i = 0; i < count; i++) {
      const v = video.current;
      if (!v || v.videoWidth === 0) throw new Error('The camera has no picture yet.');
      // On a steady beat from the start, however long taking each still takes: the stills span the tilt evenly.
      const wait = started + i * everyMs - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      frames.push(await grabFrame(v));
    }
    return frames;
  }, [video]);

  return { status, captureSize, canSwitch: cameras.length > 1, switchCamera, torch, toggleTorch, takePhoto, recordFrames };
}
