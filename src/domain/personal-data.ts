// THE registry of personal data in events (DESIGN.md §6, issue 34): by event type, whose data it is and which
// fields identify them. The event store seals these fields with the person's key on append and opens them on read;
// once the person is erased they read as `erased` says. Add an event that carries a name, an email, a phone or an
// address here, or it is kept in clear for ever.

/** What an erased person's personal text reads as where a name is shown. */
export const DELETED_USER = 'Deleted user';

export interface PersonalField {
  /** Keys from the payload's top, e.g. ['fields', 'addressLine1']. */
  path: readonly string[];
  /** What the field reads as once its person is erased: a value its schema accepts. */
  erased: string | null;
}

export interface PersonalDataRule {
  /** Whose data it is: `user:<id>` or `guest:<id>`; null when the payload names nobody (nothing to seal). */
  subjectOf(data: Record<string, unknown>): string | null;
  fields: readonly PersonalField[];
}

const userSubject = (data: Record<string, unknown>) => (typeof data.userId === 'string' ? `user:${data.userId}` : null);

/** The lines of an address, as an address book and an order keep them; the country alone identifies nobody. */
const addressLines = (under: string): PersonalField[] => [
  { path: [under, 'fullName'], erased: DELETED_USER },
  { path: [under, 'addressLine1'], erased: '' },
  { path: [under, 'addressLine2'], erased: null },
  { path: [under, 'city'], erased: '' },
  { path: [under, 'state'], erased: '' },
  { path: [under, 'zipCode'], erased: '' },
  { path: [under, 'phoneNumber'], erased: null },
];

export const personalDataRules: Readonly<Record<string, PersonalDataRule>> = {
  UserRegistered: {
    subjectOf: userSubject,
    fields: [
      // The username is made of the first name and the last initial.
      { path: ['username'], erased: DELETED_USER },
      { path: ['email'], erased: DELETED_USER },
      { path: ['firstName'], erased: null },
      { path: ['lastName'], erased: null },
      { path: ['phone'], erased: null },
    ],
  },
  UsernameChanged: {
    subjectOf: userSubject,
    fields: [
      { path: ['from'], erased: DELETED_USER },
      { path: ['to'], erased: DELETED_USER },
    ],
  },
  EmailClaimed: { subjectOf: userSubject, fields: [{ path: ['email'], erased: DELETED_USER }] },
  AddressAdded: { subjectOf: userSubject, fields: addressLines('fields') },
  AddressEdited: { subjectOf: userSubject, fields: addressLines('fields') },
  OrderPlaced: { subjectOf: userSubject, fields: [...addressLines('shippingAddress'), { path: ['notes'], erased: null }] },
  FeedbackSubmitted: {
    subjectOf: (data) => (typeof data.owner === 'string' ? data.owner : null),
    fields: [
      { path: ['name'], erased: null },
      { path: ['email'], erased: null },
    ],
  },
};

type Payload = Record<string, unknown>;

function isRecord(value: unknown): value is Payload {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The subject of an event's personal data, or null when its type carries none. */
export function subjectOf(type: string, data: unknown): string | null {
  const rule = personalDataRules[type];
  return rule && isRecord(data) ? rule.subjectOf(data) : null;
}

/** A copy of an event's payload with each personal string replaced by what `change` makes of it (nulls stay null). */
export function mapPersonalFields(type: string, data: Payload, change: (value: string, erased: string | null) => string | null): Payload {
  const rule = personalDataRules[type];
  if (!rule) return data;
  const copy = structuredClone(data);
  for (const { path, erased } of rule.fields) {
    const parent = path.slice(0, -1).reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), copy);
    const last = path.at(-1)!;
    if (isRecord(parent) && typeof parent[last] === 'string') parent[last] = change(parent[last], erased);
  }
  return copy;
}

/**
 * The payload as it reads once its person is erased: what a read model purged at the erasure holds, equal to what a
 * rebuild makes of the same event afterwards.
 */
export function erasePersonalFields<T extends Payload>(type: string, data: T): T {
  return mapPersonalFields(type, data, (_value, erased) => erased) as T;
}
