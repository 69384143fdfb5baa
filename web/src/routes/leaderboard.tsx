import { createFileRoute } from '@tanstack/react-router';
import { LeaderboardPage } from '@/features/leaderboard/components/top-graders';

export const Route = createFileRoute('/leaderboard')({
  component: LeaderboardPage,
});
