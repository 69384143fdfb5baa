import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CardResult } from '@contracts/cards';
import type { WorthGrading } from '@contracts/worth-grading';
import { toast } from '@/components/ui/use-toast';
import { achievementsQueryOptions } from '@/features/achievements/api';
import { myCardsQueryOptions } from '@/features/collection/api';
import { leaderboardQueryOptions } from '@/features/leaderboard/api';
import { portfolioQueryOptions } from '@/features/portfolio/api';
import { ApiError, apiRequest, apiUpload, getQueryFn } from '@/lib/api-client';
import { uploadableFile } from './heic-to-jpeg';

/**
 * What the upload card holds: files in the 'Upload Files' tab (or taken in 'Take Photo', which fills the same two),
 * URLs in 'Paste URLs'; `mode` is the tab in use.
 */
export type GradingInput = {
  mode: 'files' | 'camera' | 'urls';
  front: File | null;
  back: File | null;
  frontUrl: string;
  backUrl: string;
  /** 'Upload Files': an angled photo of the front, read with it as a tilt shot of two frames (issue 31). */
  angled: File | null;
  /** 'Take Photo': the tilt shot's frames; null until recorded or skipped. */
  tiltFrames: File[] | null;
};

export const EMPTY_GRADING_INPUT: GradingInput = { mode: 'files', front: null, back: null, frontUrl: '', backUrl: '', angled: null, tiltFrames: null };

/** The tilt shot that goes with the front in the tab in use: the camera's frames, or the one angled photo. */
function tiltOf(input: GradingInput): File[] {
  if (input.mode === 'camera') return input.tiltFrames ?? [];
  return input.mode === 'files' && input.angled ? [input.angled] : [];
}

// SPEC.md §2: a hidden cardType field that defaults to pokemon.
const DEFAULT_CARD_TYPE = 'pokemon';

/** Grade Card is enabled once there is a front: a file, or a URL that is not blank (SPEC.md §2). */
export function hasFront(input: GradingInput): boolean {
  return input.mode === 'urls' ? input.frontUrl.trim() !== '' : input.front !== null;
}

/** The photos as sent: a HEIC the browser can decode goes as a JPEG of it (./heic-to-jpeg.ts). */
async function gradingForm(input: GradingInput): Promise<FormData> {
  const form = new FormData();
  if (input.mode !== 'urls') {
    if (input.front) form.append('frontImage', await uploadableFile(input.front));
    if (input.back) form.append('backImage', await uploadableFile(input.back));
    for (const frame of tiltOf(input)) form.append('tiltFrames', await uploadableFile(frame));
  } else {
    // Trimmed; a blank URL is not sent at all, which the server reads as null (SPEC.md §5).
    const frontUrl = input.frontUrl.trim();
    const backUrl = input.backUrl.trim();
    if (frontUrl) form.append('frontImageUrl', frontUrl);
    if (backUrl) form.append('backImageUrl', backUrl);
  }
  form.append('cardType', DEFAULT_CARD_TYPE);
  return form;
}

async function postGradeCard(form: FormData): Promise<CardResult> {
  const response = await apiUpload('/api/grade-card', form);
  return (await response.json()) as CardResult;
}

/**
 * POST /api/grade-card; a failure shows the 'Error' toast with the server's words (SPEC.md §8). Grading is not saving:
 * the card joins the collection (and counts on the leaderboard) only when saved.
 */
export function useGradeCardMutation() {
  return useMutation({
    mutationFn: async (input: GradingInput) => postGradeCard(await gradingForm(input)),
    onError: (error) => {
      const description = (error instanceof ApiError && error.serverMessage) || 'Failed to process card';
      toast({ title: 'Error', description, variant: 'destructive' });
    },
  });
}

async function saveToCollection(result: CardResult, input: GradingInput): Promise<string> {
  if (input.mode !== 'urls' && input.front) {
    const form = new FormData();
    form.append('frontImage', await uploadableFile(input.front));
    if (input.back) form.append('backImage', await uploadableFile(input.back));
    // The same card is the same photos, its tilt shot included.
    for (const frame of tiltOf(input)) form.append('tiltFrames', await uploadableFile(frame));
    return (await postGradeCard(form)).id;
  }
  if (!result.id) throw new MissingImagesError();
  const response = await apiRequest('POST', `/api/card/${encodeURIComponent(result.id)}/save`);
  return ((await response.json()) as CardResult).id;
}

/** Where the save put the card: the collection always, the portfolio when asked (or why not, the card being saved). */
type Saved = { cardId: string; portfolio: 'added' | 'not asked' | { failed: string } };

/**
 * Save to collection (SPEC.md §4, §7): the image files go through the grading call again with nothing else, which
 * saves the same card. A card graded from URLs has no files here: it is saved by its id. With `addToPortfolio` the
 * saved card joins the portfolio too, linked to it (issue 35: one place for what I own).
 */
export function useSaveCardMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ result, input, addToPortfolio = false }: { result: CardResult; input: GradingInput; addToPortfolio?: boolean }): Promise<Saved> => {
      const cardId = await saveToCollection(result, input);
      if (!addToPortfolio) return { cardId, portfolio: 'not asked' };
      try {
        await apiRequest('POST', `/api/card/${encodeURIComponent(cardId)}/portfolio`);
        return { cardId, portfolio: 'added' };
      } catch (error) {
        return { cardId, portfolio: { failed: (error instanceof ApiError && error.serverMessage) || 'Please add it from the portfolio.' } };
      }
    },
    onSuccess: async ({ portfolio }) => {
      if (portfolio === 'added') {
        toast({ title: 'Card Saved', description: 'Your graded card has been saved to your collection and your portfolio.' });
      } else if (portfolio === 'not asked') {
        toast({ title: 'Card Saved', description: 'Your graded card has been saved to your collection.' });
      } else {
        toast({ title: 'Card Saved', description: `Your graded card has been saved to your collection, but not added to your portfolio: ${portfolio.failed}`, variant: 'destructive' });
      }
      void queryClient.invalidateQueries({ queryKey: leaderboardQueryOptions.queryKey });
      void queryClient.invalidateQueries({ queryKey: achievementsQueryOptions.queryKey });
      if (portfolio !== 'not asked') void queryClient.invalidateQueries({ queryKey: portfolioQueryOptions.queryKey });
      await queryClient.invalidateQueries({ queryKey: myCardsQueryOptions.queryKey });
    },
    onError: (error) => {
      const description = error instanceof MissingImagesError ? error.message : 'Failed to save card to collection. Please try again.';
      toast({ title: 'Error', description, variant: 'destructive' });
    },
  });
}

class MissingImagesError extends Error {
  constructor() {
    super('Card images are required to save to collection.');
    this.name = 'MissingImagesError';
  }
}

/** GET /api/card/{id}/worth-grading: the PSA odds, value per grade and each service level's verdict (issue 32). */
export function worthGradingQueryOptions(cardId: string) {
  return queryOptions({
    queryKey: [`/api/card/${encodeURIComponent(cardId)}/worth-grading`],
    queryFn: getQueryFn<WorthGrading>({ on401: 'returnNull', on404: 'returnNull' }),
  });
}
