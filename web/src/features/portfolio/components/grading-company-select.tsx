import { GRADING_COMPANIES } from '@contracts/portfolio';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

/** The grading companies of SPEC.md §5, shown only for a card marked graded. */
export function GradingCompanySelect({ id, label, value, onChange, placeholder }: { id: string; label: string; value: string; onChange: (company: string) => void; placeholder: string }) {
  return (
    <div className="grid gap-1">
      <Label id={`${id}-label`}>{label}</Label>
      <Select value={value} onValueChange={onChange}>
        <SelectTrigger aria-labelledby={`${id}-label`}>
          <SelectValue placeholder={placeholder} />
        </SelectTrigger>
        <SelectContent>
          {GRADING_COMPANIES.map((company) => (
            <SelectItem key={company} value={company}>
              {company}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
