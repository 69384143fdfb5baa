export * from './catalog.ts';
export * from './match.ts';
