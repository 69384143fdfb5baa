export * from './address-book.ts';
export * from './events.ts';
