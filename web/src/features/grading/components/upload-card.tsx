import { Camera, Link2, ScanSearch, Upload } from 'lucide-react';
import { type FormEvent, lazy, Suspense } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { IMAGE_FORMATS_LABEL } from '@contracts/image-formats';
import { type GradingInput, hasFront } from '../api';
import type { Refusal } from '../refusal';
import { ImageDropZone } from './image-drop-zone';
import { RefusalPanel } from './refusal-panel';

// The camera comes with its tab: the home page's first load does not wait for it.
const CardCamera = lazy(() => import('@/features/camera/card-camera').then((module) => ({ default: module.CardCamera })));

/**
 * The upload card of SPEC.md §2: 'Upload Files' and 'Paste URLs' tabs, 'Take Photo' with the card camera (issue 17),
 * a refused photo shown in place with what the grader found, and Grade Card once there is a front.
 */
export function UploadCard({
  input,
  onInputChange,
  onGrade,
  refusal = null,
}: {
  input: GradingInput;
  onInputChange: (input: GradingInput) => void;
  onGrade: () => void;
  refusal?: Refusal | null;
}) {
  const change = (patch: Partial<GradingInput>) => onInputChange({ ...input, ...patch });

  function submit(event: FormEvent) {
    event.preventDefault();
    onGrade();
  }

  return (
    <Card className="mx-auto w-full max-w-3xl">
      <CardHeader>
        <CardTitle>Grade a card</CardTitle>
        <CardDescription>
          A flat, well-lit photo with the whole card in frame gives the best measurements. The back is optional.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="grid gap-6">
          <Tabs value={input.mode} onValueChange={(mode) => change({ mode: mode as GradingInput['mode'] })}>
            <TabsList className="grid w-full grid-cols-3">
              <TabsTrigger value="files" className="gap-2">
                <Upload className="size-4" aria-hidden />
                Upload Files
              </TabsTrigger>
              <TabsTrigger value="urls" className="gap-2">
                <Link2 className="size-4" aria-hidden />
                Paste URLs
              </TabsTrigger>
              <TabsTrigger value="camera" className="gap-2">
                <Camera className="size-4" aria-hidden />
                Take Photo
              </TabsTrigger>
            </TabsList>
            <TabsContent value="files">
              <div className="grid gap-4 sm:grid-cols-2">
                <ImageDropZone id="front-image" label="Front image" file={input.front} onChange={(front) => change({ front })} />
                {/* A refusal sits under the photo it is about: on a phone right below it, on a wider screen below both. */}
                {input.mode === 'files' && refusal ? (
                  <div className={refusal.side === 'front' ? 'sm:order-last sm:col-span-2' : 'order-last sm:col-span-2'}>
                    <RefusalPanel refusal={refusal} />
                  </div>
                ) : null}
                <ImageDropZone id="back-image" label="Back image" optional file={input.back} onChange={(back) => change({ back })} />
                <div className="grid gap-1 sm:col-span-2">
                  <ImageDropZone id="angled-image" label="Angled photo of the front" optional file={input.angled} onChange={(angled) => change({ angled })} />
                  <p className="text-xs text-muted-foreground">The front again, tilted towards a lamp so its gloss shines: scratches that show only in reflected light are read from the two photos.</p>
                </div>
              </div>
            </TabsContent>
            <TabsContent value="urls">
              <div className="grid gap-4">
                <UrlField id="front-image-url" label="Front image URL" value={input.frontUrl} onChange={(frontUrl) => change({ frontUrl })} />
                <UrlField id="back-image-url" label="Back image URL (optional)" value={input.backUrl} onChange={(backUrl) => change({ backUrl })} />
                <p className="text-xs text-muted-foreground">The URLs must point directly to image files ({IMAGE_FORMATS_LABEL}).</p>
              </div>
            </TabsContent>
            <TabsContent value="camera">
              {input.mode === 'camera' ? (
                <Suspense fallback={<p className="py-8 text-center text-sm text-muted-foreground">Starting the camera…</p>}>
                  <CardCamera
                    photos={{ front: input.front, back: input.back, tilt: input.tiltFrames }}
                    onPhoto={(side, file) => change({ [side]: file })}
                    onTilt={(tiltFrames) => change({ tiltFrames })}
                  />
                </Suspense>
              ) : null}
            </TabsContent>
          </Tabs>
          {input.mode !== 'files' && refusal ? <RefusalPanel refusal={refusal} /> : null}
          <Button type="submit" size="lg" disabled={!hasFront(input)} aria-describedby={hasFront(input) ? undefined : 'grade-card-needs'} className="w-full">
            <ScanSearch aria-hidden />
            Grade Card
          </Button>
          {/* A disabled button says why (it takes no hover, so no tooltip): what it waits for, in the tab in use. */}
          {hasFront(input) ? null : (
            <p id="grade-card-needs" className="-mt-2 text-center text-xs text-muted-foreground">
              {input.mode === 'urls' ? 'Paste the URL of the front of the card to grade it.' : input.mode === 'camera' ? 'Take a photo of the front of the card to grade it.' : 'Add a photo of the front of the card to grade it.'}
            </p>
          )}
        </form>
      </CardContent>
    </Card>
  );
}

function UrlField({ id, label, value, onChange }: { id: string; label: string; value: string; onChange: (value: string) => void }) {
  return (
    <Field id={id} label={label}>
      {(control) => (
        <Input
          {...control}
          type="url"
          inputMode="url"
          placeholder="https://example.com/card.jpg"
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}
