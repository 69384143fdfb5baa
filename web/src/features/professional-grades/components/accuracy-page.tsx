import { useQuery } from '@tanstack/react-query';
import { Target } from 'lucide-react';
import type { Accuracy, AccuracyFigures, AccuracySplit } from '@contracts/professional-grades';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useUser } from '@/features/auth/api';
import { accuracyQueryOptions, myAccuracyQueryOptions } from '../api';

const percent = (share: number | null) => (share === null ? '–' : `${(share * 100).toFixed(1)}%`);
const number = (value: number | null, digits = 2) => (value === null ? '–' : value.toFixed(digits));
const signed = (value: number | null) => (value === null ? '–' : `${value > 0 ? '+' : ''}${value.toFixed(2)}`);

const ROWS: ReadonlyArray<{ label: string; value: (f: AccuracyFigures) => string }> = [
  { label: 'Reports (accounts)', value: (f) => `${f.reports} (${f.accounts})` },
  { label: 'Weight after the cap', value: (f) => number(f.weight, 2) },
  { label: 'Compared: PSA estimate / overall grade', value: (f) => `${f.comparedFrom.psaEstimate} / ${f.comparedFrom.overallGrade}` },
  { label: 'Exact (|Δ| ≤ 0.5)', value: (f) => percent(f.exact) },
  { label: 'Within one', value: (f) => percent(f.withinOne) },
  { label: 'Within two', value: (f) => percent(f.withinTwo) },
  { label: 'Mean |Δ|', value: (f) => number(f.meanAbsDelta) },
  { label: 'Mean Δ (engine − professional)', value: (f) => signed(f.meanDelta) },
  { label: 'Spearman ρ', value: (f) => number(f.spearman) },
  { label: 'Bias: centering', value: (f) => signed(f.subgradeBias.centering) },
  { label: 'Bias: corners', value: (f) => signed(f.subgradeBias.corners) },
  { label: 'Bias: edges', value: (f) => signed(f.subgradeBias.edges) },
  { label: 'Bias: surface', value: (f) => signed(f.subgradeBias.surface) },
];

/** One set of figures: all reports, the verified ones and the others side by side, each with what it rests on. */
function FiguresTable({ caption, split }: { caption: string; split: AccuracySplit }) {
  return (
    // Scrolls sideways on a narrow phone: focusable, so the keyboard can scroll it too.
    <div className="min-w-0 overflow-x-auto rounded-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring" tabIndex={0} role="region" aria-label={caption}>
      <table className="w-full text-sm">
        <caption className="mb-2 text-left font-medium [overflow-wrap:anywhere]">{caption}</caption>
        <thead>
          <tr className="border-b text-left text-muted-foreground">
            <th scope="col" className="py-2 pr-3 font-medium">
              Figure
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              All
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Verified
            </th>
            <th scope="col" className="py-2 pl-3 text-right font-medium">
              Unverified
            </th>
          </tr>
        </thead>
        <tbody>
          {ROWS.map((row) => (
            <tr key={row.label} className="border-b last:border-0">
              <th scope="row" className="py-1.5 pr-3 text-left font-normal">
                {row.label}
              </th>
              <td className="px-3 py-1.5 text-right tabular-nums">{row.value(split.all)}</td>
              <td className="px-3 py-1.5 text-right tabular-nums">{row.value(split.verified)}</td>
              <td className="py-1.5 pl-3 text-right tabular-nums">{row.value(split.unverified)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function AccuracySections({ accuracy }: { accuracy: Accuracy }) {
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <FiguresTable caption="Every card’s latest report" split={accuracy.overall} />
      {accuracy.byEngine.map((engine) => (
        <FiguresTable key={`${engine.vision} ${engine.calibration}`} caption={`Engine ${engine.vision}, calibration ${engine.calibration}`} split={engine.figures} />
      ))}
      {accuracy.byCompany.map((company) => (
        <FiguresTable key={company.company} caption={`Graded by ${company.company}`} split={company.figures} />
      ))}
    </div>
  );
}

/** /accuracy: how the engine's estimates agreed with professional grades reported since, for everyone to check. */
export function AccuracyPage() {
  const { user } = useUser();
  const { data: accuracy, isPending, isError } = useQuery(accuracyQueryOptions);
  const { data: mine } = useQuery({ ...myAccuracyQueryOptions, enabled: user !== null });

  return (
    <div className="mx-auto grid w-full max-w-4xl grid-cols-[minmax(0,1fr)] gap-6 px-4 py-8 sm:py-12">
      <title>Accuracy · Card Grader</title>
      <header className="grid gap-2">
        <h1 className="flex items-center gap-2 text-2xl font-bold tracking-tight sm:text-3xl">
          <Target className="size-7 text-primary" aria-hidden />
          How accurate are our grades?
        </h1>
        <p className="text-muted-foreground">
          Collectors report the grade their card later got from PSA, BGS, CGC, SGC, TAG or AGS. Each report is held against what our engine estimated when it graded the card: its PSA estimate where it
          could tell, else its overall grade (the tables say how many of each). Δ is the engine’s grade minus the professional one; a report is verified when a photo of the slab showed a label reading
          the same company and grade. Only each card’s latest report counts, and every figure says how many reports it rests on.
        </p>
      </header>

      {isPending ? (
        <div role="status" className="flex items-center gap-2 text-muted-foreground">
          <Spinner /> Loading the figures...
        </div>
      ) : isError || !accuracy ? (
        <p role="alert">The figures could not be loaded. Please try again later.</p>
      ) : (
        <>
          <Card>
            <CardHeader className="pb-2">
              <CardTitle className="text-base">One account cannot swing the figures</CardTitle>
              <CardDescription data-testid="accuracy-weighting">{accuracy.weighting}</CardDescription>
            </CardHeader>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle className="text-base">Everyone’s reports</CardTitle>
              <CardDescription>{accuracy.overall.all.reports === 0 ? 'No professional grades have been reported yet.' : 'Overall, then per engine version and per grading company.'}</CardDescription>
            </CardHeader>
            <CardContent>
              <AccuracySections accuracy={accuracy} />
            </CardContent>
          </Card>
        </>
      )}

      {user && mine ? (
        <Card data-testid="my-accuracy">
          <CardHeader>
            <CardTitle className="text-base">Your estimates</CardTitle>
            <CardDescription>
              {mine.overall.all.reports === 0 ? 'You have not reported a professional grade yet: report one from a card’s page.' : 'How the engine did on the cards you reported.'}
            </CardDescription>
          </CardHeader>
          {mine.overall.all.reports > 0 ? (
            <CardContent>
              <FiguresTable caption="Your cards’ latest reports" split={mine.overall} />
            </CardContent>
          ) : null}
        </Card>
      ) : null}
    </div>
  );
}
