export * from './card-brand.ts';
export * from './events.ts';
export * from './money.ts';
export * from './order-number.ts';
export * from './order.ts';
export * from './quote.ts';
export * from './service-levels.ts';
export * from './worth-grading.ts';
