import { FileSpreadsheet, FileUp, Upload } from 'lucide-react';
import { useState, type DragEvent } from 'react';
import { IMPORT_EXTENSIONS, importMessages, type ImportRecord } from '@contracts/imports';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { cn } from '@/lib/utils';
import { uploadFailure, useUploadMutation } from '../api';
import { ImportRows } from './import-rows';
import { ProgressPanel, useShownProgress } from './progress-panel';

const ACCEPT = IMPORT_EXTENSIONS.join(',');
const isSpreadsheetName = (name: string) => IMPORT_EXTENSIONS.some((extension) => name.toLowerCase().endsWith(extension));

/** This tab's import, followed by the panel across navigation and reloads (the list in the cache has its state). */
const FOLLOWED_KEY = 'card-grader:followed-import';
function readFollowed(): string | null {
  try {
    return sessionStorage.getItem(FOLLOWED_KEY);
  } catch {
    return null;
  }
}
function writeFollowed(importId: string): void {
  try {
    sessionStorage.setItem(FOLLOWED_KEY, importId);
  } catch {
    // Storage refused (private mode): the panel follows it while the page stays.
  }
}

/** The upload card: choose or drop a spreadsheet, upload it, and follow the import on its progress panel. */
export function UploadCard({ imports }: { imports: readonly ImportRecord[] }) {
  const [file, setFile] = useState<File | null>(null);
  const [dragging, setDragging] = useState(false);
  const [followedId, setFollowedId] = useState<string | null>(readFollowed);
  const [failedText, setFailedText] = useState<string | null>(null);
  const upload = useUploadMutation();
  // The import followed: this tab's last, or else a running one (started in another tab, or before a reload).
  const record = imports.find((item) => item.id === followedId) ?? imports.find((item) => item.status === 'processing') ?? null;
  const progress = useShownProgress(upload.isPending ? null : record);
  const running = upload.isPending || record?.status === 'processing';

  function choose(candidate: File | undefined) {
    if (!candidate) return;
    if (!isSpreadsheetName(candidate.name)) {
      toast({ ...importMessages.invalidFileType, variant: 'destructive' });
      return;
    }
    setFile(candidate);
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0]);
  }

  function start() {
    if (!file) {
      toast({ ...importMessages.noFileSelected, variant: 'destructive' });
      return;
    }
    setFailedText(null);
    upload.mutate(file, {
      onSuccess: ({ response }) => {
        if (response.importId) {
          writeFollowed(response.importId);
          setFollowedId(response.importId);
        }
        setFile(null);
      },
      onError: (error) => {
        if (uploadFailure(error) !== null) setFailedText(importMessages.uploadFailedPanel);
      },
    });
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <FileUp className="size-5 text-primary" aria-hidden />
          Upload Spreadsheet
        </CardTitle>
        <CardDescription>An Excel file (.xlsx, .xls) or a CSV file, up to 10 MB and 10,000 rows.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          data-testid="import-drop-zone"
          className={cn('grid justify-items-center gap-3 rounded-lg border-2 border-dashed p-6 text-center transition-colors', dragging ? 'border-primary bg-primary/5' : 'border-input')}
        >
          <Upload className="size-8 text-muted-foreground" aria-hidden />
          <p className="text-sm text-muted-foreground">Drag and drop your spreadsheet here, or choose it:</p>
          {/* The styled control, not the browser's "Choose File": the input is hidden and its label is the button. */}
          <input
            id="import-file"
            type="file"
            accept={ACCEPT}
            aria-label="Spreadsheet file"
            className="peer sr-only"
            onChange={(event) => {
              choose(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
          <label
            htmlFor="import-file"
            className={cn(buttonVariants({ variant: 'outline' }), 'peer-focus-visible:ring-2 peer-focus-visible:ring-ring peer-focus-visible:ring-offset-2')}
          >
            <FileSpreadsheet aria-hidden />
            {file ? 'Choose another file' : 'Choose a spreadsheet'}
          </label>
          {file ? (
            <p className="text-sm font-medium" data-testid="import-file-name">
              {file.name} <span className="font-normal text-muted-foreground">({Math.max(1, Math.round(file.size / 1024))} KB)</span>
            </p>
          ) : null}
        </div>
        <Button onClick={start} disabled={running}>
          <Upload aria-hidden />
          {upload.isPending ? 'Uploading...' : running ? 'Importing...' : 'Start Import'}
        </Button>
        <ProgressPanel progress={failedText ? null : progress} failedText={failedText} />
        {!failedText && !upload.isPending && record && record.status !== 'processing' && record.failedCards > 0 ? <ImportRows record={record} initialFilter="failed" /> : null}
      </CardContent>
    </Card>
  );
}
