import { useQuery } from '@tanstack/react-query';
import { AlertCircle } from 'lucide-react';
import { useEffect } from 'react';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { serviceLevelsQueryOptions } from '../api';
import { formatUsd, protectionOf, turnaroundOf } from '../money';
import type { WizardState } from '../wizard-state';
import { RadioCard } from './radio-card';
import { WorthGradingStepPanel } from '@/features/grading/components/worth-grading';

/** Step 1: the provider's service levels; the first is chosen when none is (SPEC.md §2), with the tier guide. */
export function ServiceLevelStep({
  cardId,
  state,
  update,
  declaredError,
  onDeclaredEdited,
}: {
  cardId: string;
  state: WizardState;
  update: (change: Partial<WizardState>) => void;
  declaredError?: string | undefined;
  onDeclaredEdited?: () => void;
}) {
  const levels = useQuery(serviceLevelsQueryOptions);

  useEffect(() => {
    if (levels.isError) toast({ title: 'Service Unavailable', description: 'Error loading service levels. Please try again later.', variant: 'destructive' });
    else if (levels.data?.length === 0) toast({ title: 'No Service Levels', description: 'No service levels available. Please try again later.', variant: 'destructive' });
  }, [levels.isError, levels.data]);

  const first = levels.data?.[0];
  useEffect(() => {
    if (!state.serviceLevel && first) update({ serviceLevel: first.code });
  }, [state.serviceLevel, first, update]);

  if (levels.isPending) {
    return (
      <div className="grid gap-3" aria-busy>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-16 w-full" />
        ))}
      </div>
    );
  }
  if (levels.isError || levels.data.length === 0) {
    return (
      <p role="alert" className="flex items-center gap-2 text-sm text-destructive">
        <AlertCircle className="size-4" aria-hidden />
        {levels.isError ? 'Error loading service levels. Please try again later.' : 'No service levels available. Please try again later.'}
      </p>
    );
  }

  return (
    <div className="grid gap-6">
      <fieldset className="grid gap-3">
        <legend className="mb-2 font-semibold">Choose a service level</legend>
        {levels.data.map((level) => {
          return (
            <RadioCard key={level.code} name="service-level" value={level.code} selected={state.serviceLevel === level.code} onSelect={() => update({ serviceLevel: level.code })}>
              <span className="grid flex-1 gap-0.5">
                <span className="font-medium">{level.name}</span>
                <span className="text-sm text-muted-foreground">
                  {turnaroundOf(level.turnaround_time_min, level.turnaround_time_max)} · protection up to {protectionOf(level.max_declared_value)}
                </span>
              </span>
              <span className="font-semibold tabular-nums">{formatUsd(level.base_price)}</span>
            </RadioCard>
          );
        })}
      </fieldset>

      <WorthGradingStepPanel cardId={cardId} selectedLevel={state.serviceLevel ?? undefined} />

      <Field id="wizard-declared-value" label="Declared value of the card (USD)" error={declaredError}>
        {(control) => (
          <Input
            {...control}
            inputMode="decimal"
            value={state.totalDeclaredValue}
            onChange={(event) => {
              update({ totalDeclaredValue: event.target.value.trim() });
              onDeclaredEdited?.();
            }}
            className="max-w-48"
          />
        )}
      </Field>

      <section aria-labelledby="tier-guide-title" className="grid gap-2">
        <h3 id="tier-guide-title" className="font-semibold">
          Price tier guide
        </h3>
        {/* Focusable, so a keyboard can scroll it on a narrow screen. */}
        <div className="overflow-x-auto rounded-lg border" tabIndex={0} role="region" aria-labelledby="tier-guide-title">
          <table className="w-full text-sm">
            <thead className="bg-muted/50 text-left">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">Tier</th>
                <th scope="col" className="px-3 py-2 font-medium">From</th>
                <th scope="col" className="px-3 py-2 font-medium">Turnaround</th>
                <th scope="col" className="px-3 py-2 font-medium">Protection</th>
              </tr>
            </thead>
            <tbody>
              {levels.data.map((level) => (
                <tr key={level.code} className="border-t">
                  <td className="px-3 py-2">{level.name}</td>
                  <td className="px-3 py-2 tabular-nums">{formatUsd(level.base_price)}</td>
                  <td className="px-3 py-2">{turnaroundOf(level.turnaround_time_min, level.turnaround_time_max)}</td>
                  <td className="px-3 py-2">up to {protectionOf(level.max_declared_value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}
