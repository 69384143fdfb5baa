import { userDecider } from '../../domain/accounts/user.ts';
import { handleCommand, type CommandContext } from '../handle-command.ts';
import { userStream } from './streams.ts';

// Settings of an account kept by the built-in provider: the marketing preference and the password.

export async function setMarketingPreference(context: CommandContext, input: { userId: string; enabled: boolean; at: string }): Promise<void> {
  await handleCommand(context, {
    ...userStream(input.userId),
    decider: userDecider,
    command: { type: 'SetMarketingPreference', data: input },
  });
}

/** The caller checked the current password and hashed the new one: only the hash reaches the event. */
export async function changePassword(context: CommandContext, input: { userId: string; passwordHash: string; at: string }): Promise<void> {
  await handleCommand(context, {
    ...userStream(input.userId),
    decider: userDecider,
    command: { type: 'ChangePassword', data: input },
  });
}

/** Settings: leave the public leaderboard, or come back to it. */
export async function setLeaderboardOptOut(context: CommandContext, input: { userId: string; optedOut: boolean; at: string }): Promise<void> {
  await handleCommand(context, {
    ...userStream(input.userId),
    decider: userDecider,
    command: { type: 'SetLeaderboardOptOut', data: input },
  });
}
