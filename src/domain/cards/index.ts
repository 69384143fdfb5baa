// Graded cards in a collection: events, the decider, ids and prices. Pure.
export * from './events.ts';
export { cardDecider, cardNotFound, sameEngine, type CardCommand, type CardState, type ClaimGuestCard, type ConfirmedCardValue, type ConfirmIdentification, type DeleteCard, type GradeCard, type NewCardPrice, type RecordCardPrice, type RegradeCard, type ReportProfessionalGrade, type SaveCard } from './card.ts';
export { engineEstimateOf, gradeScale, isGradeOnScale, labelVerifies } from './professional-grade.ts';
export { cardIdentityKey, cardIdSchema, CARD_ID_BYTES, type CardIdentity } from './card-id.ts';
export { describeCardmarketPrices, describeGradedValues, knownPrice, priceFromText, unavailableEstimate } from './price.ts';
