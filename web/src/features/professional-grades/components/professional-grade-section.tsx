import { useQuery } from '@tanstack/react-query';
import { Award, BadgeCheck, Send } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { GRADING_COMPANIES } from '@contracts/portfolio';
import { gradeScale, professionalGradeFieldsSchema, type EngineEstimate, type ProfessionalGradeReport } from '@contracts/professional-grades';
import type { GradingCompany } from '@contracts/grading';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { useUser } from '@/features/auth/api';
import { ImageDropZone } from '@/features/grading/components/image-drop-zone';
import { professionalGradeQueryOptions, useReportProfessionalGradeMutation } from '../api';

const half = (grade: number) => (Number.isInteger(grade) ? String(grade) : grade.toFixed(1));

/** "PSA estimate 8.5" or "overall grade 9.1": which of the engine's grades the figures compare, and its value. */
export function describeEstimate(estimate: EngineEstimate): string {
  return estimate.comparedFrom === 'psaEstimate' ? `PSA estimate ${half(estimate.compared)}` : `overall grade ${estimate.compared.toFixed(1)}`;
}

function VerifiedBadge({ report }: { report: ProfessionalGradeReport }) {
  if (report.verified) {
    return (
      <Badge data-testid="verified-badge" className="bg-emerald-700 text-white">
        <BadgeCheck className="size-3.5" aria-hidden />
        Verified
      </Badge>
    );
  }
  return <Badge variant="outline">{report.withPhoto ? 'Not verified: the label read differently' : 'Not verified'}</Badge>;
}

/**
 * On a card's page, for its owner only: the grade the card got from a grading company beside what the engine estimated
 * when it graded the card, a "Verified" badge when a slab photo's label read the same, and the form to report or
 * correct it (a correction supersedes the earlier report; the earlier ones are listed).
 */
export function ProfessionalGradeSection({ cardId, embedded = false }: { cardId: string; embedded?: boolean }) {
  const { data: history } = useQuery(professionalGradeQueryOptions(cardId));
  const { user } = useUser();
  if (!history) return null;
  const { current, reports } = history;
  const earlier = reports.slice(0, -1).reverse();
  return (
    // On a card's page a section of its own; embedded in an order's page, one of its cards.
    <div className={embedded ? 'sm:col-span-2' : 'mx-auto w-full max-w-6xl px-4 pb-10 sm:px-6'}>
      <Card>
        <CardHeader className="pb-4">
          <CardTitle className="flex items-center gap-2 text-base">
            <Award className="size-4 text-primary" aria-hidden />
            Professional grade
          </CardTitle>
          <CardDescription>
            Got this card graded by PSA, BGS, CGC, SGC, TAG or AGS? Report its grade: it is compared with the engine’s estimate on the public{' '}
            <a className="font-medium text-primary underline-offset-4 hover:underline" href="/accuracy">
              accuracy page
            </a>
            . Add a photo of the slab and a label that reads the same company and grade verifies it.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6 md:grid-cols-2">
          <div className="grid content-start gap-3" data-testid="professional-grade-current">
            {current ? (
              <>
                <dl className="grid grid-cols-2 gap-3">
                  <div className="rounded-md border p-3">
                    <dt className="text-xs text-muted-foreground">Reported grade</dt>
                    <dd className="text-2xl font-bold tabular-nums">
                      {current.company} {half(current.grade)}
                    </dd>
                    <dd className="text-xs text-muted-foreground">Cert {current.cert}</dd>
                  </div>
                  <div className="rounded-md border p-3">
                    <dt className="text-xs text-muted-foreground">Engine’s estimate then</dt>
                    <dd className="text-2xl font-bold tabular-nums">{half(current.estimate.compared)}</dd>
                    <dd className="text-xs text-muted-foreground">{current.estimate.comparedFrom === 'psaEstimate' ? 'PSA estimate' : 'Overall grade (no PSA estimate)'}</dd>
                  </div>
                </dl>
                <div className="flex flex-wrap items-center gap-2 text-sm">
                  <VerifiedBadge report={current} />
                  <span className="text-muted-foreground">Engine {current.estimate.engine.vision}</span>
                </div>
                {earlier.length > 0 ? (
                  <div className="grid gap-1 text-sm">
                    <h3 className="font-medium">Earlier reports (superseded)</h3>
                    <ul className="grid gap-1 text-muted-foreground">
                      {earlier.map((report) => (
                        <li key={report.reportId}>
                          {report.company} {half(report.grade)}, cert {report.cert}, {new Date(report.reportedAt).toLocaleDateString('en-US', { timeZone: 'America/New_York' })}
                          {report.verified ? ' (verified)' : ''}
                        </li>
                      ))}
                    </ul>
                  </div>
                ) : null}
              </>
            ) : (
              <p className="text-sm text-muted-foreground">No professional grade reported for this card yet.</p>
            )}
          </div>
          {user ? (
            <ProfessionalGradeForm cardId={cardId} current={current} />
          ) : (
            // A guest's card: reports count per account, so reporting needs one (the card moves to it on signing in).
            <p className="text-sm">
              <a className="font-medium text-primary underline-offset-4 hover:underline" href={`/auth?returnTo=${encodeURIComponent(`/card/${cardId}`)}`}>
                Sign in
              </a>{' '}
              to report this card’s professional grade.
            </p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

function ProfessionalGradeForm({ cardId, current }: { cardId: string; current: ProfessionalGradeReport | null }) {
  const id = useId();
  const report = useReportProfessionalGradeMutation(cardId);
  const [company, setCompany] = useState<GradingCompany>(current?.company ?? 'PSA');
  const [grade, setGrade] = useState(current ? String(current.grade) : '');
  const [cert, setCert] = useState(current?.cert ?? '');
  const [slabPhoto, setSlabPhoto] = useState<File | null>(null);
  const [errors, setErrors] = useState<{ grade?: string; cert?: string }>({});
  const scale = gradeScale(company);

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = professionalGradeFieldsSchema.safeParse({
      company,
      grade,
      cert,
    });
    const certError = parsed.success ? undefined : parsed.error.issues.find((issue) => issue.path[0] === 'cert')?.message;
    const gradeError = grade === '' || !scale.includes(Number(grade)) ? `Choose a grade ${company} gives` : undefined;
    setErrors({ grade: gradeError, cert: certError });
    if (!parsed.success || gradeError) return;
    report.mutate({ company, grade, cert: parsed.data.cert, slabPhoto }, { onSuccess: () => setSlabPhoto(null) });
  }

  return (
    <form noValidate aria-label="Report a professional grade" className="grid content-start gap-4" onSubmit={submit}>
      <div className="grid grid-cols-2 gap-4">
        <Field id={`${id}-company`} label="Company">
          {(control) => (
            <NativeSelect
              {...control}
              value={company}
              onChange={(event) => {
                const next = event.target.value as GradingCompany;
                setCompany(next);
                if (grade !== '' && !gradeScale(next).includes(Number(grade))) setGrade('');
              }}
            >
              {GRADING_COMPANIES.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </NativeSelect>
          )}
        </Field>
        <Field id={`${id}-grade`} label="Grade" error={errors.grade}>
          {(control) => (
            <NativeSelect {...control} value={grade} onChange={(event) => setGrade(event.target.value)}>
              <option value="">Choose…</option>
              {[...scale].reverse().map((step) => (
                <option key={step} value={String(step)}>
                  {half(step)}
                </option>
              ))}
            </NativeSelect>
          )}
        </Field>
      </div>
      <Field id={`${id}-cert`} label="Certification number" error={errors.cert}>
        {(control) => <Input {...control} inputMode="text" autoComplete="off" placeholder="As printed on the label" value={cert} onChange={(event) => setCert(event.target.value)} />}
      </Field>
      {/* The grade screen's drop zone, not a native "Choose File": the same formats and size checked when chosen. */}
      <ImageDropZone id={`${id}-photo`} label="Slab photo (verifies the grade)" optional file={slabPhoto} onChange={setSlabPhoto} />
      <Button type="submit" disabled={report.isPending} className="sm:justify-self-start">
        <Send aria-hidden />
        {report.isPending ? 'Recording...' : current ? 'Correct the grade' : 'Report grade'}
      </Button>
    </form>
  );
}
