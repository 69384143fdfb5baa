import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { type CameraPhotos, CardCamera } from '@/features/camera/card-camera';

function dataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error('The photo could not be read.'));
    reader.readAsDataURL(file);
  });
}

/**
 * Take Photo in the Add dialog (SPEC.md §2): the shared card camera, front then back, then Analyze & Add with the
 * two pictures as data URLs (the back may be skipped). The photo is taken with the button here, not by itself: the
 * dialog adds cards in bulk, one press per card.
 */
export function CameraCapture({ onCaptured, disabled }: { onCaptured: (front: string, back: string | null) => void; disabled: boolean }) {
  const [photos, setPhotos] = useState<CameraPhotos>({ front: null, back: null });
  return (
    <CardCamera photos={photos} onPhoto={(side, file) => setPhotos((p) => ({ ...p, [side]: file }))} autoCapture={false} disabled={disabled}>
      {photos.front ? (
        <div>
          <Button
            type="button"
            variant="secondary"
            disabled={disabled}
            onClick={async () => {
              const { front, back } = photos;
              if (!front) return;
              onCaptured(await dataUrl(front), back ? await dataUrl(back) : null);
              setPhotos({ front: null, back: null });
            }}
          >
            Analyze &amp; Add
          </Button>
        </div>
      ) : null}
    </CardCamera>
  );
}
