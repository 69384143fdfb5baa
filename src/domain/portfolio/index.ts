// Cards in a collector's portfolio: events and the decider. Pure.
export * from './events.ts';
export * from './portfolio-card.ts';
export * from './analysis.ts';
