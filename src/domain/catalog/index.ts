export * from './catalog.ts';
export * from './match.ts';
export * from './evidence.ts';
