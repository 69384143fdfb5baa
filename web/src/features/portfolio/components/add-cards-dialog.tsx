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
import { pairImages, pasteUrlPairs, withoutLines, type PastedUrls } from '../portfolio-view';
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
        <li key={item.n} className="grid gap-0.5" data-testid="bulk-item" data-status={item.status}>
          <span className="flex items-center gap-2">
            {item.status === 'analyzing' ? (
              <LoaderCircle className="size-4 shrink-0 animate-spin text-muted-foreground" aria-label="Analyzing" />
            ) : item.status === 'complete' ? (
              <Check className="size-4 shrink-0 text-emerald-700" aria-label="Added" />
            ) : (
              <X className="size-4 shrink-0 text-destructive" aria-label="Failed" />
            )}
            <span>{item.status === 'analyzing' ? `Analyzing ${item.name}…` : item.name}</span>
          </span>
          {item.failure ? <BulkFailure item={item} failure={item.failure} /> : null}
        </li>
      ))}
    </ul>
  );
}

/** Which photo or URL failed, and why: the one the server named, or the pair when it was about the card. */
function BulkFailure({ item, failure }: { item: BulkItem; failure: NonNullable<BulkItem['failure']> }) {
  const named = failure.side === 'front' ? [['Front', item.front]] : failure.side === 'back' ? [['Back', item.back]] : [['Front', item.front], ['Back', item.back]];
  return (
    <div className="ml-6 grid gap-0.5 text-muted-foreground" data-testid="bulk-failure">
      {named
        .filter(([, what]) => what)
        .map(([side, what]) => (
          <span key={side} className="break-all">
            {side}: <span className="font-mono text-foreground">{what}</span>
          </span>
        ))}
      <span className="font-medium text-destructive">{failure.reason}</span>
    </div>
  );
}

/** Paste URLs: how the lines pair up, as they are typed, and the lines that cannot be sent. */
function UrlPairing({ pasted }: { pasted: PastedUrls }) {
  if (pasted.cards.length === 0 && pasted.problems.length === 0) return null;
  return (
    <div className="grid gap-2 text-sm">
      {pasted.cards.length > 0 ? (
        <ol className="grid gap-1 rounded-lg border p-2" aria-label="How the URLs pair up" data-testid="url-pairs">
          {pasted.cards.map((card, i) => (
            <li key={`${card.front.line}-${i}`} className="grid gap-0.5" data-testid="url-pair">
              <span className="font-medium">Card {i + 1}</span>
              <span className="break-all">
                Front (line {card.front.line}): <span className="font-mono">{card.front.url}</span>
              </span>
              <span className="break-all text-muted-foreground">
                {card.back ? (
                  <>
                    Back (line {card.back.line}): <span className="font-mono text-foreground">{card.back.url}</span>
                  </>
                ) : (
                  'No back'
                )}
              </span>
            </li>
          ))}
        </ol>
      ) : null}
      {pasted.problems.length > 0 ? (
        <ul className="grid gap-1 rounded-lg border border-destructive/40 p-2" aria-label="Lines to fix" data-testid="url-problems">
          {pasted.problems.map((problem) => (
            <li key={problem.line} className="break-all text-destructive">
              Line {problem.line} (<span className="font-mono">{problem.text}</span>): {problem.reason}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
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

  function start(...args: Parameters<typeof bulk.run>) {
    if (!user) {
      toast({ title: 'Error', description: 'User not authenticated', variant: 'destructive' });
      return;
    }
    void bulk.run(...args);
  }

  async function analyseFiles() {
    const images = await Promise.all(files.map(readAsDataUrl));
    const names = pairImages(files.map((file) => file.name));
    start(
      pairImages(images).map((pair, i) => ({ ...pair, label: names[i]! })),
      // The photos of the cards added go; those that failed stay chosen, to try again or replace.
      (added) => onFilesChange(files.filter((_, index) => !added.has(Math.floor(index / 2)))),
    );
  }

  function analyseUrls() {
    const { cards } = pasted;
    const typed = urls;
    start(
      cards.map((card) => ({ front: card.front.url, back: card.back?.url ?? null, label: { front: card.front.url, back: card.back?.url ?? null } })),
      // What was typed stays, but for the lines of the cards added: a failed URL is there to fix.
      (added) => setUrls(withoutLines(typed, new Set(cards.filter((_, i) => added.has(i)).flatMap((card) => [card.front.line, card.back?.line ?? card.front.line])))),
    );
  }

  const filePairs = pairImages(files);
  const pasted = pasteUrlPairs(urls);
  const urlCount = pasted.cards.length;

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
            <p id={`${id}-urls-hint`} className="text-sm text-muted-foreground">
              Lines pair up in order: front, then back. To pair them yourself, put a card&apos;s front and back on one line with a space between. A
              line left on its own is a card without a back.
            </p>
            <Textarea
              id={`${id}-urls`}
              value={urls}
              rows={5}
              readOnly={bulk.running}
              aria-describedby={`${id}-urls-hint`}
              onChange={(e) => setUrls(e.target.value)}
              placeholder={'https://example.com/front.jpg\nhttps://example.com/back.jpg'}
              className="min-h-24 font-mono"
            />
            <UrlPairing pasted={pasted} />
            <div className="grid gap-1">
              <Button
                type="button"
                className="w-fit"
                disabled={urlCount === 0 || pasted.problems.length > 0 || bulk.running}
                aria-describedby={pasted.problems.length > 0 ? `${id}-urls-blocked` : undefined}
                onClick={analyseUrls}
              >
                {bulk.running ? <LoaderCircle className="animate-spin" aria-hidden /> : null}
                Analyze &amp; Add {urlCount > 0 ? `${urlCount} ${urlCount === 1 ? 'Card' : 'Cards'}` : 'Cards'}
              </Button>
              {pasted.problems.length > 0 ? (
                <p id={`${id}-urls-blocked`} className="text-sm text-destructive">
                  Fix the {pasted.problems.length === 1 ? 'line' : 'lines'} above first: nothing is sent until every line is a web address.
                </p>
              ) : null}
            </div>
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
