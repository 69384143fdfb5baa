// Where a graded card lives in the event store.
export const cardStream = (cardId: string) => ({ streamId: `card-${cardId}`, streamType: 'card' });
