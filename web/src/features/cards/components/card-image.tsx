import { ImageOff } from 'lucide-react';
import { useState } from 'react';
import { cn } from '@/lib/utils';

/**
 * A card picture, or the fallback of SPEC.md §2 when there is none or it fails to load
 * (a marketplace image behind a URL may have expired).
 */
export function CardImage({ src, alt, className }: { src: string | null; alt: string; className?: string }) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (!src || failedSrc === src) {
    return (
      <div
        role="img"
        aria-label={`${alt}: image not available`}
        className={cn('flex aspect-[63/88] w-full flex-col items-center justify-center gap-2 rounded-lg bg-muted p-4 text-center', className)}
      >
        <ImageOff className="size-8 text-muted-foreground" aria-hidden />
        <p className="text-sm font-medium">Image not available</p>
        <p className="text-xs text-muted-foreground">The marketplace image may have expired.</p>
      </div>
    );
  }
  return (
    <img
      src={src}
      alt={alt}
      onError={() => setFailedSrc(src)}
      className={cn('aspect-[63/88] w-full rounded-lg bg-muted object-contain', className)}
    />
  );
}
