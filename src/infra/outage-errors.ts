import { AppError } from '../contracts/errors.ts';

// A dependency that stops answering (the database, Redis, the image folder) is an outage, not a bug: the request
// gets a 503 that says which piece is down and to try again, never a 500. The causes are recognised by what the
// drivers throw; the error's own text stays in the log.

const POSTGRES_OUTAGE_CODES = /^(08|57P0[1-3]|53300|53400)/; // connection exceptions, admin/crash shutdown, cannot connect now, too many connections
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
const STORAGE_CODES = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT', 'EIO', 'ENOTDIR']);
const POSTGRES_OUTAGE_MESSAGES = /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|terminating connection due to administrator command|Client was closed and is not queryable|the database system is (shutting down|starting up)/i;
const REDIS_OUTAGE = /MaxRetriesPerRequest|Connection is closed|enableOfflineQueue|Command timed out|Stream isn't writeable/i;

export const databaseUnavailable = () => new AppError('unavailable', 'database_unavailable', 'The database is not answering right now. Please try again in a moment.');
export const queueUnavailable = () => new AppError('unavailable', 'queue_unavailable', 'The job queue is not answering right now. Please try again in a moment.');
export const storageUnavailable = () => new AppError('unavailable', 'storage_unavailable', 'Photos cannot be stored right now. Please try again later.');

function* causes(error: unknown): Generator<Record<string, unknown>> {
  let current = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    yield current as Record<string, unknown>;
    current = (current as { cause?: unknown }).cause;
  }
}

/** The 503 for an error that means a dependency is down; null for anything else. */
export function outageOf(error: unknown): AppError | null {
  for (const cause of causes(error)) {
    const code = typeof cause.code === 'string' ? cause.code : '';
    const message = typeof cause.message === 'string' ? cause.message : '';
    const name = typeof cause.name === 'string' ? cause.name : '';
    if (STORAGE_CODES.has(code) && typeof cause.syscall === 'string') return storageUnavailable();
    if (name === 'MaxRetriesPerRequestError' || REDIS_OUTAGE.test(message)) return queueUnavailable();
    if (POSTGRES_OUTAGE_CODES.test(code) && typeof cause.severity === 'string') return databaseUnavailable();
    if (POSTGRES_OUTAGE_MESSAGES.test(message) || NETWORK_CODES.has(code)) return databaseUnavailable();
  }
  return null;
}
