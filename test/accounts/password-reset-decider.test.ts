import { describe, it } from 'vitest';
import type { PasswordResetEvent } from '../../src/domain/accounts/events.ts';
import { passwordResetDecider } from '../../src/domain/accounts/password-reset.ts';
import { specify } from './decider-spec.ts';

const given = specify(passwordResetDecider);
const issued: PasswordResetEvent = { type: 'PasswordResetRequested', data: { userId: 'u1', requestedAt: '2026-03-01T12:00:00.000Z', expiresAt: '2026-03-01T13:00:00.000Z' } };
const use = (usedAt: string, passwordChangedAt: string | null = null) => ({ type: 'UsePasswordReset' as const, data: { usedAt, passwordChangedAt } });

describe('a password reset link', () => {
  it('is issued once per token', () => {
    given([]).when({ type: 'IssuePasswordReset', data: issued.data }).then([issued]);
    given([issued]).when({ type: 'IssuePasswordReset', data: issued.data }).thenRefuses('reset_link_exists');
  });

  it('works until a millisecond before it expires, and then no more', () => {
    given([issued]).when(use('2026-03-01T12:59:59.999Z')).then([{ type: 'PasswordResetUsed', data: { userId: 'u1', usedAt: '2026-03-01T12:59:59.999Z' } }]);
    given([issued]).when(use('2026-03-01T13:00:00.000Z')).thenRefuses('reset_link_expired');
  });

  it('works once', () => {
    given([issued, { type: 'PasswordResetUsed', data: { userId: 'u1', usedAt: '2026-03-01T12:10:00.000Z' } }]).when(use('2026-03-01T12:11:00.000Z')).thenRefuses('reset_link_used');
  });

  it('ends when the password changes after it was sent (another link, or Settings); a change before it does not matter', () => {
    given([issued]).when(use('2026-03-01T12:30:00.000Z', '2026-03-01T12:20:00.000Z')).thenRefuses('reset_link_superseded');
    given([issued]).when(use('2026-03-01T12:30:00.000Z', '2026-03-01T11:59:00.000Z')).then([{ type: 'PasswordResetUsed', data: { userId: 'u1', usedAt: '2026-03-01T12:30:00.000Z' } }]);
  });

  it('is invalid when it was never issued', () => {
    given([]).when(use('2026-03-01T12:00:00.000Z')).thenRefuses('reset_link_invalid');
  });
});
