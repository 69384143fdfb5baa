import type { CardResult } from '@contracts/cards';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { LoaderCircle, RotateCcw, Save } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { useUser } from '@/features/auth/api';
import { useConfirmIdentificationMutation } from '@/features/cards/api';
import { ProfessionalGradingButton } from '@/features/cards/components/professional-grading-button';
import { ShareButton } from '@/features/cards/components/share-button';
import { HomePage } from '@/features/home/components/home-page';
import { TopGraders } from '@/features/leaderboard/components/top-graders';
import { EMPTY_GRADING_INPUT, type GradingInput, hasFront, useGradeCardMutation, useSaveCardMutation } from '../api';
import { refusalOf } from '../refusal';
import { useRememberedChoice } from '../use-remembered-choice';
import { AnalyzingCard } from './analyzing-card';
import { UploadCard } from './upload-card';

// The result is loaded once a card is being graded, not with the home page, which keeps its JavaScript within 200 KB.
const loadResultView = () => import('@/features/cards/components/card-result-view');
const CardResultView = lazy(() => loadResultView().then((module) => ({ default: module.CardResultView })));

/**
 * Home (/) as SPEC.md §4 runs it: idle (upload card and leaderboard), processing (the loader in place of the
 * form), then the result. Grade Another Card clears the result and the images and starts over.
 */
export function GradingHome() {
  const [input, setInput] = useState<GradingInput>(EMPTY_GRADING_INPUT);
  const [result, setResult] = useState<CardResult | null>(null);
  const grade = useGradeCardMutation();
  const confirm = useConfirmIdentificationMutation();
  const navigate = useNavigate();
  useResultAddress(result, () => reset());

  function startGrading() {
    if (!hasFront(input)) {
      toast({ title: 'Missing front image', description: 'Please upload at least the front of your card', variant: 'destructive' });
      return;
    }
    void loadResultView();
    grade.mutate(input, {
      onSuccess: (card) => {
        setResult(card);
        // The result's own address, /card/{id}, while this screen goes on showing it (see useResultAddress).
        void navigate({ to: '/', state: { gradedCard: card.id } as never, mask: { to: '/card/$id', params: { id: card.id }, unmaskOnReload: true } });
        window.scrollTo({ top: 0 });
      },
    });
  }

  function reset() {
    setResult(null);
    setInput(EMPTY_GRADING_INPUT);
    grade.reset();
    window.scrollTo({ top: 0 });
  }

  function gradeAnother() {
    reset();
    void navigate({ to: '/', replace: true });
  }

  if (result) {
    return (
      <Suspense fallback={<AnalyzingCard />}>
        <CardResultView
          result={result}
          announce
          onConfirmCard={async (catalogId) => setResult(await confirm.mutateAsync({ id: result.id, catalogId }))}
          actions={<ResultActions result={result} input={input} onGradeAnother={gradeAnother} />}
        />
      </Suspense>
    );
  }
  return (
    <HomePage>
      <div className="mt-10 grid gap-10">
        {grade.isPending ? <AnalyzingCard /> : <UploadCard input={input} onInputChange={setInput} onGrade={startGrading} refusal={refusalOf(grade.error, grade.variables, input)} />}
        <TopGraders />
      </div>
    </HomePage>
  );
}

function ResultActions({ result, input, onGradeAnother }: { result: CardResult; input: GradingInput; onGradeAnother: () => void }) {
  const save = useSaveCardMutation();
  const navigate = useNavigate();
  const { user } = useUser();
  // Signed-in users keep a portfolio: the save can put the card there too, as they chose last time in this browser.
  const [addToPortfolio, setAddToPortfolio] = useRememberedChoice(`card-grader:save-to-portfolio:${user?.id ?? 'guest'}`, false);
  const saving = { result, input, addToPortfolio: Boolean(user) && addToPortfolio };
  const saveButton = (
    <Button
      size="lg"
      variant="outline"
      disabled={save.isPending}
      className={user ? 'h-auto min-h-10 w-full whitespace-normal px-3' : undefined}
      onClick={() => save.mutate(saving, { onSuccess: () => void navigate({ to: '/collection' }) })}
    >
      {save.isPending ? <LoaderCircle className="animate-spin" aria-hidden /> : <Save aria-hidden />}
      {save.isPending ? 'Saving Card...' : 'Save to Collection'}
    </Button>
  );
  return (
    <>
      <ProfessionalGradingButton cardId={result.id} saveFirst={user ? () => save.mutateAsync(saving) : undefined} />
      <ShareButton cardId={result.id} cardName={result.cardName} />
      {user ? (
        // One cell of the phone's action bar (the grid's padding is the button's own here), kept low: a 14 px line
        // under the button, so the bar stays under a fifth of the screen.
        <div className="flex flex-col items-stretch gap-0.5" style={{ padding: 0 }} data-testid="save-actions">
          {saveButton}
          <label className="flex cursor-pointer items-center justify-center gap-1.5 text-xs leading-none font-medium text-muted-foreground">
            <input
              type="checkbox"
              className="m-0 size-3.5 cursor-pointer accent-primary"
              checked={addToPortfolio}
              onChange={(event) => setAddToPortfolio(event.target.checked)}
            />
            Also add to my portfolio
          </label>
        </div>
      ) : (
        saveButton
      )}
      <Button size="lg" variant="ghost" onClick={onGradeAnother}>
        <RotateCcw aria-hidden />
        Grade Another Card
      </Button>
    </>
  );
}

/**
 * A graded card's address is /card/{id}: the address bar shows it (a masked location) while this screen keeps the
 * result it just graded. Back from there is a new, empty grade screen; Forward again to an address whose result this
 * screen no longer holds opens the card's own page.
 */
function useResultAddress(result: CardResult | null, onLeft: () => void) {
  const maskedPath = useRouterState({ select: (state) => state.location.maskedLocation?.pathname ?? null });
  const navigate = useNavigate();
  const shown = useRef<string | null>(null);
  const left = useRef(onLeft);
  left.current = onLeft;
  useEffect(() => {
    if (maskedPath === null) {
      if (shown.current !== null) {
        shown.current = null;
        left.current();
      }
      return;
    }
    if (result && maskedPath === `/card/${encodeURIComponent(result.id)}`) {
      shown.current = maskedPath;
      return;
    }
    if (!result) void navigate({ to: maskedPath, replace: true });
  }, [maskedPath, result, navigate]);
}
