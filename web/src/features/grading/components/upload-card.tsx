import { Link2, ScanSearch, Upload } from 'lucide-react';
import type { FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { type GradingInput, hasFront } from '../api';
import { ImageDropZone } from './image-drop-zone';

/** The upload card of SPEC.md §2: 'Upload Files' and 'Paste URLs' tabs, and Grade Card once there is a front. */
export function UploadCard({
  input,
  onInputChange,
  onGrade,
}: {
  input: GradingInput;
  onInputChange: (input: GradingInput) => void;
  onGrade: () => void;
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
            <TabsList className="grid w-full grid-cols-2">
              <TabsTrigger value="files" className="gap-2">
                <Upload className="size-4" aria-hidden />
                Upload Files
              </TabsTrigger>
              <TabsTrigger value="urls" className="gap-2">
                <Link2 className="size-4" aria-hidden />
                Paste URLs
              </TabsTrigger>
            </TabsList>
            <TabsContent value="files">
              <div className="grid gap-4 sm:grid-cols-2">
                <ImageDropZone id="front-image" label="Front image" file={input.front} onChange={(front) => change({ front })} />
                <ImageDropZone id="back-image" label="Back image" optional file={input.back} onChange={(back) => change({ back })} />
              </div>
            </TabsContent>
            <TabsContent value="urls">
              <div className="grid gap-4">
                <UrlField id="front-image-url" label="Front image URL" value={input.frontUrl} onChange={(frontUrl) => change({ frontUrl })} />
                <UrlField id="back-image-url" label="Back image URL (optional)" value={input.backUrl} onChange={(backUrl) => change({ backUrl })} />
                <p className="text-xs text-muted-foreground">The URLs must point directly to image files (JPG, PNG or WEBP).</p>
              </div>
            </TabsContent>
          </Tabs>
          <Button type="submit" size="lg" disabled={!hasFront(input)} className="w-full">
            <ScanSearch aria-hidden />
            Grade Card
          </Button>
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
