// Achievements: the catalogue and what earns each one. Pure.
export * from './catalogue.ts';
export * from './collector-stats.ts';
