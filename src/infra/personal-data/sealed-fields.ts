import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Tables } from '../database/schema.ts';
import type { PersonKey, PersonKeys } from './person-keys.ts';
import { mapPersonalFields, subjectOf } from '../../domain/personal-data.ts';

// Sealing and opening the personal fields of events (personal-fields.ts) with their person's key: AES-256-GCM,
// a fresh 12-byte IV per value, the subject as additional data (a sealed value moved to someone else's event does
// not open). A sealed value stays a string in its place, so every event keeps its shape and its schema.

const SEALED_PREFIX = 'pd1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export function sealText(key: Buffer, subject: string, text: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(subject));
  const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

export const isSealed = (value: unknown): value is string => typeof value === 'string' && value.startsWith(SEALED_PREFIX);

/** The text, or undefined when it does not open with this key (not sealed by it). */
export function openText(key: Buffer, subject: string, value: string): string | undefined {
  const bytes = Buffer.from(value.slice(SEALED_PREFIX.length), 'base64url');
  if (bytes.length < IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(subject));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

type Payload = Record<string, unknown>;

/** Personal data as the log should keep it: sealed with its person's key, or as erased once they are. */
export interface PersonalDataSealer {
  /** Payloads to store for these events, in order; inside the append's transaction (keys are made there). */
  seal(trx: Transaction<Tables>, events: readonly { type: string; data: unknown }[]): Promise<unknown[]>;
  /**
   * Payloads as read: sealed fields opened, an erased person's fields as erased. A payload in the old plaintext shape
   * (written before sealing, issue 34) reads as it is, or as erased once its person is: it is the upcaster of that shape.
   */
  open<E extends { type: string; data: unknown }>(events: readonly E[], trx?: Transaction<Tables>): Promise<E[]>;
}

export function createPersonalDataSealer(keys: PersonKeys): PersonalDataSealer {
  return {
    async seal(trx, events) {
      const sealed: unknown[] = [];
      const keyBySubject = new Map<string, PersonKey>();
      for (const { type, data } of events) {
        const subject = subjectOf(type, data);
        if (subject === null) {
          sealed.push(data);
          continue;
        }
        let key = keyBySubject.get(subject);
        if (!key) keyBySubject.set(subject, (key = await keys.keyForWriting(trx, subject)));
        const personKey = key;
        sealed.push(mapPersonalFields(type, data as Payload, (value, erased) => (personKey === 'erased' ? erased : sealText(personKey, subject, value))));
      }
      return sealed;
    },
    async open(events, trx) {
      const subjects = new Set<string>();
      for (const { type, data } of events) {
        const subject = subjectOf(type, data);
        if (subject !== null) subjects.add(subject);
      }
      if (subjects.size === 0) return [...events];
      const keyBySubject = await keys.keysOf([...subjects], trx);
      return events.map((event) => {
        const subject = subjectOf(event.type, event.data);
        if (subject === null) return event;
        const key = keyBySubject.get(subject);
        // Never keyed: nothing of theirs was sealed, the payload is plaintext of the old shape.
        if (key === undefined) return event;
        const data = mapPersonalFields(event.type, event.data as Payload, (value, erased) => {
          if (key === 'erased') return erased;
          return isSealed(value) ? (openText(key, subject, value) ?? value) : value;
        });
        return { ...event, data };
      });
    },
  };
}
