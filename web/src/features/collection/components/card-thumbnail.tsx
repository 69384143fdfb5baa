import { ImageOff } from 'lucide-react';
import { useState } from 'react';
import { cn } from '@/lib/utils';

/** A card's front in the collection: 'No image available' without one, a plain placeholder when it fails to load. */
export function CardThumbnail({ src, alt, className, compact = false }: { src: string | null; alt: string; className?: string; compact?: boolean }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) {
    return (
      <div className={cn('flex aspect-[63/88] flex-col items-center justify-center gap-1 rounded-md bg-muted text-muted-foreground', className)}>
        <ImageOff className={compact ? 'size-4' : 'size-6'} aria-hidden />
        {compact ? <span className="sr-only">No image available</span> : <span className="text-xs">{src ? 'Image unavailable' : 'No image available'}</span>}
      </div>
    );
  }
  return <img src={src} alt={alt} loading="lazy" onError={() => setFailed(true)} className={cn('aspect-[63/88] rounded-md bg-muted object-contain', className)} />;
}
