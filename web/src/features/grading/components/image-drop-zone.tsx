import { ImagePlus, RefreshCw, Trash2 } from 'lucide-react';
import { type DragEvent, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { PhotoPreview } from '@/components/ui/photo-preview';
import { toast } from '@/components/ui/use-toast';
import { cn } from '@/lib/utils';
import { IMAGE_ACCEPT_ATTRIBUTE, IMAGE_FORMATS_LABEL, isImageFormatFile, PHOTO_MAX_BYTES, PHOTO_MAX_LABEL } from '@contracts/image-formats';

/**
 * One side's drop area (SPEC.md §2): drop an image or click to browse; once chosen, a preview with Change and
 * Remove. Image files only.
 */
export function ImageDropZone({
  id,
  label,
  optional = false,
  file,
  onChange,
}: {
  id: string;
  label: string;
  optional?: boolean;
  file: File | null;
  onChange: (file: File | null) => void;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  function accept(candidate: File | undefined) {
    if (!candidate) return;
    if (!isImageFormatFile(candidate)) {
      toast({ title: 'Invalid File Type', description: `Please select an image file (${IMAGE_FORMATS_LABEL}).`, variant: 'destructive' });
      return;
    }
    if (candidate.size > PHOTO_MAX_BYTES) {
      const megabytes = (candidate.size / 1024 / 1024).toFixed(1);
      toast({ title: 'File Too Large', description: `That photo is ${megabytes} MB; a photo may be up to ${PHOTO_MAX_LABEL}.`, variant: 'destructive' });
      return;
    }
    onChange(candidate);
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    accept(event.dataTransfer.files[0]);
  }

  const input = (
    <input
      ref={inputRef}
      id={id}
      type="file"
      accept={IMAGE_ACCEPT_ATTRIBUTE}
      className="peer sr-only"
      aria-label={`${label}${optional ? ' (optional)' : ''}`}
      // With a preview on screen, Change is the way to another file; the hidden input stays out of the tab order.
      tabIndex={file ? -1 : undefined}
      onChange={(event) => {
        accept(event.target.files?.[0]);
        // The same file chosen again after Remove must fire a change.
        event.target.value = '';
      }}
    />
  );

  return (
    <div className="grid gap-2">
      <p className="text-sm font-medium">
        {label}
        {optional ? <span className="font-normal text-muted-foreground"> (optional)</span> : null}
      </p>
      {file ? (
        <div
          className="grid gap-3 rounded-xl border bg-muted/40 p-3"
          onDragOver={(event) => event.preventDefault()}
          onDrop={onDrop}
        >
          {input}
          <PhotoPreview file={file} alt={`${label} preview`} className="mx-auto aspect-[63/88] h-56" />
          <p className="truncate text-center text-xs text-muted-foreground" title={file.name}>
            {file.name}
          </p>
          <div className="flex justify-center gap-2">
            <Button variant="outline" size="sm" onClick={() => inputRef.current?.click()} aria-label={`Change ${label.toLowerCase()}`}>
              <RefreshCw aria-hidden />
              Change
            </Button>
            <Button variant="ghost" size="sm" onClick={() => onChange(null)} aria-label={`Remove ${label.toLowerCase()}`}>
              <Trash2 aria-hidden />
              Remove
            </Button>
          </div>
        </div>
      ) : (
        <>
          {input}
          <label
            htmlFor={id}
            onDragOver={(event) => {
              event.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            className={cn(
              'flex h-40 cursor-pointer flex-col items-center justify-center gap-2 rounded-xl sm:h-56 border-2 border-dashed px-4 text-center transition-colors hover:border-primary/60 hover:bg-accent/40 peer-focus-visible:border-primary peer-focus-visible:ring-2 peer-focus-visible:ring-ring',
              dragging ? 'border-primary bg-accent' : 'border-input',
            )}
          >
            <span className="flex size-11 items-center justify-center rounded-full bg-accent text-accent-foreground">
              <ImagePlus className="size-5" aria-hidden />
            </span>
            <span className="text-sm font-medium">Drop an image here or click to browse</span>
            <span className="text-xs text-muted-foreground">{IMAGE_FORMATS_LABEL}, up to {PHOTO_MAX_LABEL}</span>
          </label>
        </>
      )}
    </div>
  );
}
