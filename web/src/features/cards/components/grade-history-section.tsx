import { useQuery } from '@tanstack/react-query';
import { History } from 'lucide-react';
import type { EngineVersion, GradeHistoryEntry, ProfessionalGradeReport } from '@contracts/professional-grades';
import { Badge } from '@/components/ui/badge';
import { gradeHistoryQueryOptions } from '../api';
import { formatDate, formatGrade, scoreTextClass, SUBGRADE_NAMES } from '../grade-format';
import { ResultSection } from './section';

type HistoryItem = { kind: 'engine'; at: string; entry: GradeHistoryEntry } | { kind: 'professional'; at: string; report: ProfessionalGradeReport };

const half = (grade: number) => (Number.isInteger(grade) ? String(grade) : grade.toFixed(1));

/** "Engine 3f2a… (calibration 2026-11-20)": the vision's short hash and the calibration's fit date, in full on hover. */
function EngineLine({ engine }: { engine: EngineVersion }) {
  if (engine.vision === 'unknown') return <span className="text-xs text-muted-foreground">Engine not recorded (graded before versions were kept)</span>;
  const calibration = engine.calibration.split('@')[0];
  return (
    <span className="text-xs text-muted-foreground" title={`vision ${engine.vision}, calibration ${engine.calibration}`}>
      Engine <span className="font-mono">{engine.vision}</span>, calibration {calibration}
    </span>
  );
}

function EngineGrade({ entry }: { entry: GradeHistoryEntry }) {
  return (
    <div className="grid gap-1">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className={`text-2xl font-bold tabular-nums ${scoreTextClass(entry.overallGrade)}`}>{formatGrade(entry.overallGrade)}</span>
        <Badge variant={entry.kind === 'graded' ? 'secondary' : 'outline'}>{entry.kind === 'graded' ? 'Graded' : 'Regraded'}</Badge>
        {entry.psaEstimate !== null ? <span className="text-sm text-muted-foreground">PSA estimate {half(entry.psaEstimate)}</span> : null}
      </div>
      <p className="text-sm text-muted-foreground">{SUBGRADE_NAMES.map(([key, name]) => `${name} ${formatGrade(entry.grades[key])}`).join(' · ')}</p>
      <EngineLine engine={entry.engine} />
    </div>
  );
}

function ProfessionalGrade({ report }: { report: ProfessionalGradeReport }) {
  return (
    <div className="grid gap-1">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="text-2xl font-bold tabular-nums">
          {report.company} {half(report.grade)}
        </span>
        <Badge variant="outline">{report.source === 'order' ? 'Professional, from the order' : 'Professional, reported'}</Badge>
        {report.verified ? <Badge className="bg-emerald-700 text-white">Verified</Badge> : null}
      </div>
      <p className="text-sm text-muted-foreground">Cert {report.cert}</p>
    </div>
  );
}

/**
 * On a card's page, for its owner only: every grade the card has had, newest first. The engine's grades each with the
 * engine that made it (its grading, then each regrade by a later engine; the card keeps the first), and the grades
 * professional graders gave it.
 */
export function GradeHistorySection({ cardId }: { cardId: string }) {
  const { data: history } = useQuery(gradeHistoryQueryOptions(cardId));
  if (!history) return null;
  const items: HistoryItem[] = [
    ...history.grades.map((entry) => ({ kind: 'engine' as const, at: entry.at, entry })),
    ...history.reports.map((report) => ({ kind: 'professional' as const, at: report.reportedAt, report })),
  ].sort((a, b) => b.at.localeCompare(a.at));
  return (
    <div className="mx-auto w-full max-w-6xl px-4 pb-6 sm:px-6">
      <ResultSection
        title="Grade history"
        icon={History}
        description="Every grade this card has had, newest first: the engine’s, each with the engine version that made it, and the professional grades reported."
      >
        <ol className="grid gap-3" aria-label="Grade history" data-testid="grade-history">
          {items.map((item, index) => (
            <li key={index} className="grid gap-2 rounded-md border p-3 sm:grid-cols-[9rem_1fr]">
              <time className="text-sm font-medium" dateTime={item.at}>
                {formatDate(item.at)}
              </time>
              {item.kind === 'engine' ? <EngineGrade entry={item.entry} /> : <ProfessionalGrade report={item.report} />}
            </li>
          ))}
        </ol>
      </ResultSection>
    </div>
  );
}
