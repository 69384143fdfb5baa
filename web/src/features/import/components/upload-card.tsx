import { FileSpreadsheet, FileUp, Upload } from 'lucide-react';
import { useState, type DragEvent } from 'react';
import { IMPORT_EXTENSIONS, importMessages, stageMessage, type ImportProgress } from '@contracts/imports';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { cn } from '@/lib/utils';
import { statsOf, uploadFailure, useRefreshAfterImport, useUploadMutation } from '../api';
import { useImportProgress } from '../use-import-progress';
import { ProgressPanel } from './progress-panel';

const ACCEPT = IMPORT_EXTENSIONS.join(',');
const isSpreadsheetName = (name: string) => IMPORT_EXTENSIONS.some((extension) => name.toLowerCase().endsWith(extension));

/** The upload card: choose or drop a spreadsheet, upload it, and follow the import on its progress panel. */
export function UploadCard() {
  const [file, setFile] = useState<File | null>(null);
  const [dragging, setDragging] = useState(false);
  const [importId, setImportId] = useState<string | null>(null);
  const [started, setStarted] = useState<ImportProgress | null>(null);
  const [failedText, setFailedText] = useState<string | null>(null);
  const upload = useUploadMutation();
  const refresh = useRefreshAfterImport();
  const live = useImportProgress(importId, (done) => {
    refresh();
    toast({
      title: done.status === 'cancelled' ? 'Import Cancelled' : 'Import Complete',
      description: `${done.successful} card${done.successful === 1 ? '' : 's'} graded, ${done.duplicates} duplicate${done.duplicates === 1 ? '' : 's'}, ${done.failed} failed.`,
      duration: importMessages.completeDurationMs,
    });
  });
  const progress = live ?? started;
  const running = upload.isPending || (progress !== null && progress.status === 'processing');

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
    setImportId(null);
    setStarted(null);
    upload.mutate(file, {
      onSuccess: (response) => {
        const stats = statsOf(response);
        if (response.importId) {
          setStarted({
            type: 'import-progress',
            importId: response.importId,
            current: 0,
            total: stats.total,
            progress: 0,
            failed: 0,
            duplicates: 0,
            successful: 0,
            currentCard: null,
            estimatedTimeRemaining: null,
            averageTimePerCard: null,
            stage: 'preparing',
            status: 'processing',
            message: stageMessage('preparing', 0, stats.total),
          });
          setImportId(response.importId);
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
        <ProgressPanel progress={progress} failedText={failedText} />
      </CardContent>
    </Card>
  );
}
