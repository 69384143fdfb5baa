import { Download, FileSpreadsheet } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useDownloadTemplateMutation } from '../api';

/** The template download card: the columns and what goes in them (SPEC.md §5). */
export function TemplateCard() {
  const download = useDownloadTemplateMutation();
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <FileSpreadsheet className="size-5 text-primary" aria-hidden />
          Download Template
        </CardTitle>
        <CardDescription>Start from our spreadsheet: one card per row.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid gap-2 text-sm">
          <div>
            <dt className="font-medium">FrontImage <span className="font-normal text-muted-foreground">(required)</span></dt>
            <dd className="text-muted-foreground">A direct image URL of the front of the card</dd>
          </div>
          <div>
            <dt className="font-medium">BackImage <span className="font-normal text-muted-foreground">(optional)</span></dt>
            <dd className="text-muted-foreground">A direct image URL of the back</dd>
          </div>
          <div>
            <dt className="font-medium">ItemID <span className="font-normal text-muted-foreground">(optional)</span></dt>
            <dd className="text-muted-foreground">Your or the marketplace's id for the card, kept with it</dd>
          </div>
        </dl>
        <Button variant="outline" onClick={() => download.mutate()} disabled={download.isPending}>
          <Download aria-hidden />
          {download.isPending ? 'Downloading...' : 'Download Template'}
        </Button>
      </CardContent>
    </Card>
  );
}
