// Where an import and each of its rows' outcomes live in the event store.
export const importStream = (importId: string) => ({ streamId: `import-${importId}`, streamType: 'import' });
export const importRowStream = (importId: string, row: number) => ({ streamId: `import-row-${importId}-${row}`, streamType: 'import-row' });
