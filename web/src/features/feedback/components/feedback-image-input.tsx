import { ImagePlus, Trash2 } from 'lucide-react';
import { FEEDBACK_IMAGE_MAX_BYTES, feedbackMessages } from '@contracts/feedback';
import { IMAGE_ACCEPT_ATTRIBUTE, sniffImageType } from '@contracts/image-formats';
import { Button, buttonVariants } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { useObjectUrl } from '@/lib/use-object-url';
import { cn } from '@/lib/utils';

/**
 * Why `file` cannot be attached, or null (SPEC.md §5): it must be an image, judged by its first bytes as the server
 * judges it (a text file named .png is not one), and no larger than 5 MB.
 */
async function attachmentProblem(file: File): Promise<{ title: string; description: string } | null> {
  const head = new Uint8Array(await file.slice(0, 64).arrayBuffer());
  if (!file.type.startsWith('image/') || !sniffImageType(head)) return feedbackMessages.invalidFileType;
  if (file.size > FEEDBACK_IMAGE_MAX_BYTES) return feedbackMessages.fileTooLarge;
  return null;
}

/** The optional picture: choose one, see it, remove it. A refused file is announced by a toast and not kept. */
export function FeedbackImageInput({ file, onChange }: { file: File | null; onChange: (file: File | null) => void }) {
  const previewUrl = useObjectUrl(file);

  async function choose(candidate: File | undefined) {
    if (!candidate) return;
    const problem = await attachmentProblem(candidate);
    if (problem) {
      toast({ ...problem, variant: 'destructive' });
      return;
    }
    onChange(candidate);
  }

  return (
    <div className="grid gap-2">
      <label htmlFor="feedback-image" className="text-sm font-medium">
        Screenshot or image <span className="font-normal text-muted-foreground">(optional)</span>
      </label>
      {file && previewUrl ? (
        <div className="flex items-center gap-3 rounded-lg border bg-muted/40 p-3">
          <img src={previewUrl} alt="Attached image preview" className="size-16 shrink-0 rounded-md bg-muted object-cover" />
          <p className="min-w-0 flex-1 truncate text-sm" title={file.name}>
            {file.name}
          </p>
          <Button variant="ghost" size="sm" onClick={() => onChange(null)} aria-label="Remove image">
            <Trash2 aria-hidden />
            Remove
          </Button>
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          {/* The styled control, not the browser's "Choose File": the input is hidden and the label beside it is the button. */}
          <input
            id="feedback-image"
            type="file"
            accept={IMAGE_ACCEPT_ATTRIBUTE}
            aria-describedby="feedback-image-hint"
            className="peer sr-only"
            onChange={(event) => {
              void choose(event.target.files?.[0]);
              // The same file chosen again after Remove must fire a change.
              event.target.value = '';
            }}
          />
          <label
            htmlFor="feedback-image"
            className={cn(buttonVariants({ variant: 'outline', size: 'sm' }), 'peer-focus-visible:ring-2 peer-focus-visible:ring-ring peer-focus-visible:ring-offset-2')}
          >
            <ImagePlus aria-hidden />
            Choose an image
          </label>
          <p id="feedback-image-hint" className="text-xs text-muted-foreground">
            An image file (JPG, PNG, etc.), smaller than 5MB
          </p>
        </div>
      )}
    </div>
  );
}
