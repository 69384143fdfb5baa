import { ImageOff } from 'lucide-react';
import { useState } from 'react';
import { cn } from '@/lib/utils';

/** A small card photo that opens the large viewer; a plain placeholder when there is none or it fails to load. */
export function CardThumb({ src, name, onOpen, className }: { src: string | null; name: string; onOpen: () => void; className?: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (!src || failed === src) {
    return (
      <div role="img" aria-label={`${name}: no image`} className={cn('flex aspect-[63/88] w-12 items-center justify-center rounded bg-muted', className)}>
        <ImageOff className="size-4 text-muted-foreground" aria-hidden />
      </div>
    );
  }
  return (
    <button
      type="button"
      onClick={(event) => {
        event.stopPropagation();
        onOpen();
      }}
      className={cn('block w-12 shrink-0 rounded focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring', className)}
      aria-label={`View the image of ${name}`}
    >
      <img src={src} alt="" onError={() => setFailed(src)} className="aspect-[63/88] w-full rounded bg-muted object-cover" />
    </button>
  );
}
