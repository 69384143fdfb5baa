import { ImageOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useObjectUrl } from '@/lib/use-object-url';
import { cn } from '@/lib/utils';

/**
 * A chosen photo as the browser shows it; a format the browser cannot draw (HEIC outside Safari) shows the file's
 * name on a plain placeholder instead of a broken image.
 */
export function PhotoPreview({ file, alt, className }: { file: File | null; alt: string; className?: string }) {
  const url = useObjectUrl(file);
  const [broken, setBroken] = useState(false);
  useEffect(() => setBroken(false), [url]);
  if (!file) return null;
  if (broken || !url) {
    return (
      <div
        role="img"
        aria-label={`${alt}: no preview for ${file.name}`}
        className={cn('flex flex-col items-center justify-center gap-1 rounded-lg border bg-muted p-2 text-center text-xs text-muted-foreground', className)}
      >
        <ImageOff className="size-5" aria-hidden />
        {url ? <span className="line-clamp-3 break-all">No preview for {file.name}</span> : null}
      </div>
    );
  }
  return <img src={url} alt={alt} onError={() => setBroken(true)} className={cn('rounded-lg bg-muted object-contain', className)} />;
}
