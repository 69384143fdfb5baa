import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';

export interface ViewedImages {
  name: string;
  /** What is shown first: the flattened card where the engine made one, else the photo. */
  front: string;
  back: string | null;
  /** The photos as taken, when the pictures above are the flattened card: one click away ("Original photo"). */
  photos?: { front: string; back: string | null } | undefined;
}

/** What a card with pictures shows in the viewer: the flattened card first, its photos one click away. */
export function viewedImagesOf(card: {
  cardName: string;
  imageUrl: string | null;
  backImageUrl: string | null;
  cardImageUrl: string | null;
  backCardImageUrl: string | null;
}): ViewedImages | null {
  if (!card.imageUrl) return null;
  if (!card.cardImageUrl) return { name: card.cardName, front: card.imageUrl, back: card.backImageUrl };
  return {
    name: card.cardName,
    front: card.cardImageUrl,
    back: card.backCardImageUrl ?? card.backImageUrl,
    photos: { front: card.imageUrl, back: card.backImageUrl },
  };
}

/** The large image viewer (SPEC.md §2): the card, front and back when there is a back, and the photos it came from. */
export function ImageViewer({ images, onClose }: { images: ViewedImages | null; onClose: () => void }) {
  const [side, setSide] = useState<'front' | 'back'>('front');
  const [original, setOriginal] = useState(false);
  const shown = images && original && images.photos ? images.photos : images;
  const src = shown ? (side === 'back' && shown.back ? shown.back : shown.front) : null;
  const what = original || !images?.photos ? 'photo' : 'card';
  return (
    <Dialog
      open={images !== null}
      onOpenChange={(open) => {
        if (!open) {
          setSide('front');
          setOriginal(false);
          onClose();
        }
      }}
    >
      <DialogContent className="max-w-2xl">
        <DialogTitle>{images?.name}</DialogTitle>
        <DialogDescription>
          {side === 'back' ? 'Back of the card' : 'Front of the card'}
          {images?.photos ? (original ? ', the photo as taken' : ', straightened from the photo') : ''}
        </DialogDescription>
        {src ? (
          <img
            src={src}
            alt={`${images?.name} (${side}, ${what})`}
            className="max-h-[70vh] w-full rounded-lg bg-muted object-contain"
            data-testid="image-viewer-image"
            data-picture={what}
          />
        ) : null}
        {images?.back || images?.photos ? (
          <div className="flex flex-wrap justify-center gap-2">
            {images.back ? (
              <>
                <Button variant={side === 'front' ? 'default' : 'outline'} size="sm" onClick={() => setSide('front')}>
                  Front
                </Button>
                <Button variant={side === 'back' ? 'default' : 'outline'} size="sm" onClick={() => setSide('back')}>
                  Back
                </Button>
              </>
            ) : null}
            {images.photos ? (
              <Button variant={original ? 'default' : 'outline'} size="sm" aria-pressed={original} onClick={() => setOriginal(!original)}>
                Original photo
              </Button>
            ) : null}
          </div>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
