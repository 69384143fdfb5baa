import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';

export interface ViewedImages {
  name: string;
  front: string;
  back: string | null;
}

/** The large image viewer (SPEC.md §2): the card's photo, front and back when there is a back. */
export function ImageViewer({ images, onClose }: { images: ViewedImages | null; onClose: () => void }) {
  const [side, setSide] = useState<'front' | 'back'>('front');
  const src = images ? (side === 'back' && images.back ? images.back : images.front) : null;
  return (
    <Dialog
      open={images !== null}
      onOpenChange={(open) => {
        if (!open) {
          setSide('front');
          onClose();
        }
      }}
    >
      <DialogContent className="max-w-2xl">
        <DialogTitle>{images?.name}</DialogTitle>
        <DialogDescription>{side === 'back' ? 'Back of the card' : 'Front of the card'}</DialogDescription>
        {src ? <img src={src} alt={`${images?.name} (${side})`} className="max-h-[70vh] w-full rounded-lg bg-muted object-contain" data-testid="image-viewer-image" /> : null}
        {images?.back ? (
          <div className="flex justify-center gap-2">
            <Button variant={side === 'front' ? 'default' : 'outline'} size="sm" onClick={() => setSide('front')}>
              Front
            </Button>
            <Button variant={side === 'back' ? 'default' : 'outline'} size="sm" onClick={() => setSide('back')}>
              Back
            </Button>
          </div>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
