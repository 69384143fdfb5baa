import type { CardResult } from '@contracts/cards';
import { ListChecks } from 'lucide-react';
import { cn } from '@/lib/utils';
import { formatGrade, SUBGRADE_NAMES, scoreBarClass, scoreTextClass } from '../grade-format';
import { ResultSection } from './section';

/** The four subgrades with their labels and score colours, and each side's own figures when a back was graded. */
export function GradingDetails({ result }: { result: CardResult }) {
  const { frontGrades, backGrades } = result;
  const bothSides = frontGrades !== undefined && backGrades !== undefined;
  return (
    <ResultSection
      title="Grading Details"
      icon={ListChecks}
      description={
        bothSides
          ? `Front ${formatGrade(result.frontOverall)} and back ${formatGrade(result.backOverall)}, weighed 60/40. Each side weighs centering 15%, corners 35%, edges 15%, surface 35%.`
          : 'Centering 15%, corners 35%, edges 15%, surface 35% of the overall grade.'
      }
    >
      <ul className="grid gap-4">
        {SUBGRADE_NAMES.map(([key, name]) => {
          const grade = result.grades[key];
          const label = result.labels[key];
          return (
            <li key={key} className="grid gap-1.5" data-testid={`subgrade-${key}`}>
              <div className="flex items-baseline justify-between gap-3">
                <span className="font-medium">{name}</span>
                <span className="flex items-baseline gap-2">
                  <span className={cn('text-sm font-medium', scoreTextClass(grade))}>{label ?? 'Not measurable'}</span>
                  <span className={cn('w-10 text-right text-lg font-bold tabular-nums', scoreTextClass(grade))}>{formatGrade(grade)}</span>
                </span>
              </div>
              <div className="h-2 overflow-hidden rounded-full bg-muted" aria-hidden>
                {grade !== null ? <div className={cn('h-full rounded-full', scoreBarClass(grade))} style={{ width: `${grade * 10}%` }} /> : null}
              </div>
              {bothSides ? (
                <p className="text-xs tabular-nums text-muted-foreground">
                  Front {formatGrade(frontGrades[key])} · Back {formatGrade(backGrades[key])}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
    </ResultSection>
  );
}
