import { IMAGE_ACCEPT_ATTRIBUTE } from '@contracts/image-formats';
import { Check, LoaderCircle, Upload, X } from 'lucide-react';
import { useCallback, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/components/ui/use-toast';
import { useUser } from '@/features/auth/api';
import { isPortfolioPhoto } from '../portfolio-photos';
import { pairImages, urlLines } from '../portfolio-view';
import { readAsDataUrl, useBulkAdd, type BulkItem } from '../use-bulk-add';
import { CameraCapture } from './camera-capture';
import { ManualCardForm } from './manual-card-form';

export type AddMode = 'upload' | 'url' | 'scan' | 'manual';

function BulkProgress({ items, outcome }: { items: BulkItem[]; outcome: string | null }) {
  return (
    <div className="grid gap-2" aria-live="polite">
      {outcome ? (
        <p className="text-sm font-medium" data-testid="bulk-outcome">
          {outcome}
        </p>
      ) : null}
      {items.length > 0 ? <BulkItems items={items} /> : null}
    </div>
  );
}

function BulkItems({ items }: { items: BulkItem[] }) {
  return (
    <ul className="grid gap-1 rounded-lg border p-2 text-sm" aria-label="Cards being added">
      {items.map((item) => (
        <li key={item.n} className="flex items-center gap-2" data-testid="bulk-item" data-status={item.status}>
          {item.status === 'analyzing' ? (
            <LoaderCircle className="size-4 animate-spin text-muted-foreground" aria-label="Analyzing" />
          ) : item.status === 'complete' ? (
            <Check className="size-4 text-emerald-700" aria-label="Added" />
          ) : (
            <X className="size-4 text-destructive" aria-label="Failed" />
          )}
          <span>{item.status === 'analyzing' ? `Analyzing ${item.name}…` : item.name}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * Add Card(s) (SPEC.md §2, §4, §5): upload photos, paste URLs, take a photo, or enter a card by hand. Photos and URLs
 * pair up front/back in order; an odd count makes the last one single-sided.
 */
export function AddCardsDialog({
  open,
  onOpenChange,
  mode,
  onModeChange,
  files,
  onFilesChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  mode: AddMode;
  onModeChange: (mode: AddMode) => void;
  files: File[];
  onFilesChange: (files: File[]) => void;
}) {
  const { user } = useUser();
  const [urls, setUrls] = useState('');
  const id = useId();
  const clear = useCallback(() => {
    onFilesChange([]);
    setUrls('');
  }, [onFilesChange]);
  const bulk = useBulkAdd(clear);

  function start(pairs: Parameters<typeof bulk.run>[0]) {
    if (!user) {
      toast({ title: 'Error', description: 'User not authenticated', variant: 'destructive' });
      return;
    }
    void bulk.run(pairs);
  }

  async function analyseFiles() {
    const images = await Promise.all(files.map(readAsDataUrl));
    start(pairImages(images));
  }

  const filePairs = pairImages(files);
  const urlPairs = pairImages(urlLines(urls));

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Add Card(s)</DialogTitle>
          <DialogDescription>Photos are analysed and added one pair at a time: the first of each pair is the front, the second the back.</DialogDescription>
        </DialogHeader>
        <Tabs value={mode} onValueChange={(value) => onModeChange(value as AddMode)}>
          <TabsList className="grid h-auto w-full grid-cols-2 sm:grid-cols-4">
            <TabsTrigger value="upload">Upload Photos</TabsTrigger>
            <TabsTrigger value="url">Paste URLs</TabsTrigger>
            <TabsTrigger value="scan">Take Photo</TabsTrigger>
            <TabsTrigger value="manual">Manual Entry</TabsTrigger>
          </TabsList>

          <TabsContent value="upload" className="grid gap-3 pt-3">
            <label
              htmlFor={`${id}-files`}
              className="flex cursor-pointer flex-col items-center gap-2 rounded-lg border-2 border-dashed p-6 text-center text-sm text-muted-foreground hover:bg-muted/40"
            >
              <Upload className="size-6" aria-hidden />
              <span>Drop photos here or click to choose them</span>
            </label>
            <input
              id={`${id}-files`}
              type="file"
              accept={IMAGE_ACCEPT_ATTRIBUTE}
              multiple
              className="sr-only"
              aria-label="Card photos"
              onChange={(event) => {
                const chosen = [...(event.target.files ?? [])].filter(isPortfolioPhoto);
                onFilesChange([...files, ...chosen]);
                event.target.value = '';
              }}
            />
            {files.length > 0 ? (
              <p className="text-sm" data-testid="upload-summary">
                {files.length} {files.length === 1 ? 'photo' : 'photos'} selected: {filePairs.length} {filePairs.length === 1 ? 'card' : 'cards'}
                {files.length % 2 === 1 ? ' (the last one single-sided)' : ''}
              </p>
            ) : null}
            <div className="flex gap-2">
              <Button type="button" disabled={files.length === 0 || bulk.running} onClick={() => void analyseFiles()}>
                {bulk.running ? <LoaderCircle className="animate-spin" aria-hidden /> : null}
                Analyze &amp; Add {filePairs.length > 0 ? `${filePairs.length} ${filePairs.length === 1 ? 'Card' : 'Cards'}` : 'Cards'}
              </Button>
              {files.length > 0 && !bulk.running ? (
                <Button type="button" variant="outline" onClick={clear}>
                  Clear
                </Button>
              ) : null}
            </div>
          </TabsContent>

          <TabsContent value="url" className="grid gap-3 pt-3">
            <Label htmlFor={`${id}-urls`}>Image URLs, one per line</Label>
            <Textarea
              id={`${id}-urls`}
              value={urls}
              rows={5}
              onChange={(e) => setUrls(e.target.value)}
              placeholder={'https://example.com/front.jpg\nhttps://example.com/back.jpg'}
              className="min-h-24 font-mono"
            />
            <Button
              type="button"
              className="w-fit"
              disabled={urlPairs.length === 0 || bulk.running}
              onClick={() => start(urlPairs.map((pair) => ({ ...pair, keepAsImages: true })))}
            >
              {bulk.running ? <LoaderCircle className="animate-spin" aria-hidden /> : null}
              Analyze &amp; Add {urlPairs.length > 0 ? `${urlPairs.length} ${urlPairs.length === 1 ? 'Card' : 'Cards'}` : 'Cards'}
            </Button>
          </TabsContent>

          <TabsContent value="scan" className="pt-3">
            {mode === 'scan' && open ? <CameraCapture disabled={bulk.running} onCaptured={(front, back) => start([{ front, back }])} /> : null}
          </TabsContent>

          <TabsContent value="manual" className="pt-3">
            <ManualCardForm onAdded={() => onOpenChange(false)} />
          </TabsContent>
        </Tabs>
        <BulkProgress items={bulk.items} outcome={bulk.outcome} />
      </DialogContent>
    </Dialog>
  );
}
