import type { Quote } from '@contracts/orders';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { formatUsd } from '../money';
import type { WizardState } from '../wizard-state';

const ADD_ONS = [
  { key: 'cardCleaning', hint: 'Careful surface cleaning before grading' },
  { key: 'subgradesReport', hint: 'Centering, corners, edges and surface, each graded' },
  { key: 'heightMap', hint: 'A laser scan of the surface' },
  { key: 'customShippingBox', hint: 'A fitted box for the return trip' },
  { key: 'slabCards', hint: 'A sleeve that protects the slab' },
] as const;

/** Step 2: Additional Services, with the prices the server quotes (the app keeps none of its own). */
export function AddOnsStep({ state, update, quote }: { state: WizardState; update: (change: Partial<WizardState>) => void; quote: Quote | undefined }) {
  return (
    <fieldset className="grid gap-3">
      <legend className="mb-2 font-semibold">Additional Services</legend>
      {ADD_ONS.map(({ key, hint }) => {
        const option = quote?.options.find((o) => o.code === key);
        const id = `wizard-addon-${key}`;
        return (
          <div key={key} className="flex items-center justify-between gap-4 rounded-lg border p-4">
            <div className="grid gap-0.5">
              <Label htmlFor={id}>
                {option?.label ?? key} {option ? <span className="font-normal text-muted-foreground">(+{formatUsd(option.amount)})</span> : null}
              </Label>
              <p className="text-sm text-muted-foreground">{hint}</p>
            </div>
            <Switch id={id} checked={state[key]} onCheckedChange={(checked) => update({ [key]: checked })} />
          </div>
        );
      })}
    </fieldset>
  );
}
