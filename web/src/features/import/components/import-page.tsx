import { useState } from 'react';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useImports } from '../api';
import { ImportHistory } from './import-history';
import { TemplateCard } from './template-card';
import { UploadCard } from './upload-card';

/** /import (SPEC.md §2): the title and two tabs, 'New Import' (template, upload, progress) and 'Import History (n)'. */
export function ImportPage() {
  const { imports, isPending } = useImports(true);
  const [tab, setTab] = useState('new');
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-8 sm:py-12">
      <title>Bulk Import · Card Grader</title>
      <header className="mb-6 grid gap-1">
        <h1 className="text-3xl font-bold tracking-tight">Ultra-Fast Bulk Import</h1>
        <p className="text-muted-foreground">Grade hundreds of cards from one spreadsheet of image URLs: 50 analyses at once, each image downloaded within 2 seconds.</p>
      </header>
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList>
          <TabsTrigger value="new">New Import</TabsTrigger>
          <TabsTrigger value="history">Import History ({imports.length})</TabsTrigger>
        </TabsList>
        <TabsContent value="new" className="mt-4 grid gap-6 lg:grid-cols-[1fr_1.4fr]">
          <TemplateCard />
          <UploadCard imports={imports} />
        </TabsContent>
        <TabsContent value="history" className="mt-4">
          <ImportHistory imports={imports} isPending={isPending} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
