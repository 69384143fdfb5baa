// Achievements: the catalogue, what earns each one, and their notifications. Pure.
export * from './catalogue.ts';
export * from './collector-stats.ts';
export * from './notifications.ts';
