import { UNKNOWN_CARD_NAME } from '@contracts/grading';
import { CircleHelp, Pencil } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/utils';

// Names (issue 35): a card's name is only what identification stands behind, else "Unknown card" with a sign of
// doubt; its owner can rename it wherever it is shown (collection, card page, portfolio), and choose among the
// catalogue's names identification offered ("Is this …?").

/** The rename rule the server keeps (PATCH /api/card/{id}): trimmed, 1 to 100 characters. */
export const MAX_CARD_NAME = 100;

export function cardNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'Card name is required';
  if (trimmed.length > MAX_CARD_NAME) return `Card name must be at most ${MAX_CARD_NAME} characters`;
  return null;
}

export const isUnknownName = (name: string) => name === UNKNOWN_CARD_NAME;

/** Beside "Unknown card": the card was not identified from its photo, so the name is not a claim. */
export function UnknownNameSign({ name, className }: { name: string; className?: string }) {
  if (!isUnknownName(name)) return null;
  return (
    <span
      data-testid="name-doubt"
      title="The card could not be identified from its photo. Rename it if you know which card it is."
      className={cn('inline-flex w-fit shrink-0 items-center gap-1 rounded-full border border-amber-300 bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-900', className)}
    >
      <CircleHelp className="size-3.5" aria-hidden />
      Not identified
    </span>
  );
}

/**
 * "Rename": a button that opens a one-line form in place (Enter saves, Escape cancels), and gives the focus back to
 * the button when it closes. `onRename` resolves once the server has the name; a refusal keeps the form open.
 */
export function RenameControl({ name, onRename, className }: { name: string; onRename: (name: string) => Promise<unknown>; className?: string }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();

  const open = () => {
    // An unknown card starts blank: "Unknown card" is not a name to edit.
    setDraft(isUnknownName(name) ? '' : name);
    setProblem(null);
    setEditing(true);
  };
  const close = () => {
    setEditing(false);
    window.setTimeout(() => button.current?.focus(), 0);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    const found = cardNameProblem(draft);
    setProblem(found);
    if (found) return;
    setPending(true);
    try {
      await onRename(draft.trim());
      close();
    } catch {
      // The mutation's toast says why; the form stays open with what was typed.
    } finally {
      setPending(false);
    }
  };
  const onKeyDown = (event: KeyboardEvent) => {
    event.stopPropagation(); // a row that opens on Enter must not see the form's keys
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    }
  };

  if (!editing) {
    return (
      <Button
        ref={button}
        type="button"
        variant="ghost"
        size="sm"
        aria-label={`Rename ${name}`}
        data-testid="rename-card"
        className={cn('h-8 px-2 text-xs', className)}
        onClick={(event) => {
          event.stopPropagation();
          open();
        }}
      >
        <Pencil className="size-3.5" aria-hidden />
        Rename
      </Button>
    );
  }
  return (
    <form
      aria-label={`Rename ${name}`}
      data-testid="rename-form"
      className={cn('grid w-full gap-1.5', className)}
      onSubmit={(event) => void submit(event)}
      onKeyDown={onKeyDown}
      onClick={(event) => event.stopPropagation()}
    >
      <label htmlFor={`${id}-name`} className="text-xs font-medium">
        Card name
      </label>
      <Input
        id={`${id}-name`}
        value={draft}
        autoFocus
        maxLength={MAX_CARD_NAME + 20}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        onChange={(event) => {
          setDraft(event.target.value);
          if (problem) setProblem(null);
        }}
      />
      {problem ? (
        <p id={`${id}-problem`} role="alert" className="text-xs font-medium text-destructive">
          {problem}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={pending}>
          {pending ? 'Saving…' : 'Save name'}
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={close}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** "Is this …?": the catalogue's names identification found close to what it read, for an unknown card's owner to pick. */
export function NameCandidates({ name, candidates, onChoose }: { name: string; candidates: readonly string[] | undefined; onChoose: (name: string) => Promise<unknown> }) {
  const [pending, setPending] = useState<string | null>(null);
  if (!isUnknownName(name) || !candidates || candidates.length === 0) return null;
  return (
    <div role="group" aria-label="Which card is this?" data-testid="name-candidates" className="flex flex-wrap items-center gap-2 text-sm">
      {candidates.map((candidate) => (
        <Button
          key={candidate}
          type="button"
          size="sm"
          variant="outline"
          disabled={pending !== null}
          onClick={() => {
            setPending(candidate);
            void onChoose(candidate).finally(() => setPending(null));
          }}
        >
          Is this {candidate}?
        </Button>
      ))}
    </div>
  );
}
