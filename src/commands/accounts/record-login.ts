import { userDecider } from '../../domain/accounts/user.ts';
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
