import { userDecider, type RecordRefusedSignIn } from '../../domain/accounts/user.ts';
import { handleCommand, type CommandContext } from '../handle-command.ts';
import { userStream } from './streams.ts';

/** Records a successful sign-in; the credentials were checked by the provider before. */
export async function recordLogin(context: CommandContext, input: { userId: string; at: string }): Promise<void> {
  await handleCommand(context, {
    ...userStream(input.userId),
    decider: userDecider,
    command: { type: 'RecordLogin', data: input },
  });
}

/** Records a refused sign-in to an existing account (wrong password or throttled), for the audit trail. */
export async function recordRefusedSignIn(context: CommandContext, input: RecordRefusedSignIn['data']): Promise<void> {
  await handleCommand(context, {
    ...userStream(input.userId),
    decider: userDecider,
    command: { type: 'RecordRefusedSignIn', data: input },
  });
}
