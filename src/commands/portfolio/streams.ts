// Where a portfolio card lives in the event store.
export const portfolioCardStream = (cardId: number) => ({ streamId: `portfolio-card-${cardId}`, streamType: 'portfolio-card' });
