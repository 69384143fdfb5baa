import { atom, useAtom, type WritableAtom } from 'jotai';
import { atomWithStorage, createJSONStorage } from 'jotai/utils';
import { orderSelectionSchema, type OrderSelectionInput, type ServiceLevel } from '@contracts/orders';

// The wizard's state (SPEC.md §3 Submission state), shared by the five steps with jotai and kept in localStorage,
// per account and card: a reload, or a second tab, finds the same wizard, and its wizardId is the idempotency key
// that makes every submit of it one order. Prices are never kept here: every figure comes from the server's quote.

export const WIZARD_STEPS = ['Service Level', 'Add Ons', 'Shipping', 'Payment', 'Review'] as const;

export interface WizardState {
  wizardId: string;
  step: number;
  serviceLevel: string | null;
  cardCleaning: boolean;
  subgradesReport: boolean;
  heightMap: boolean;
  customShippingBox: boolean;
  slabCards: boolean;
  requireSignature: boolean;
  shippingInsurance: boolean;
  /** Dollars, as typed. */
  totalDeclaredValue: string;
  shippingAddressId: string | null;
  paymentComplete: boolean;
  /** What the processor said: brand, last four and the amount authorised; never the card number. */
  payment: { brand: string; last4: string; amount: string; amountCents: number } | null;
  notes: string;
}

export function initialWizardState(declaredValue: string | null): WizardState {
  return {
    wizardId: crypto.randomUUID(),
    step: 0,
    serviceLevel: null,
    cardCleaning: false,
    subgradesReport: true,
    heightMap: false,
    customShippingBox: false,
    slabCards: true,
    requireSignature: true,
    shippingInsurance: false,
    totalDeclaredValue: declaredValue ?? '0',
    shippingAddressId: null,
    paymentComplete: false,
    payment: null,
    notes: '',
  };
}

type WizardAtom = WritableAtom<WizardState | null, [WizardState | null], void>;
const atoms = new Map<string, WizardAtom>();
const storage = createJSONStorage<WizardState | null>(() => localStorage);

function wizardAtom(key: string): WizardAtom {
  let found = atoms.get(key);
  if (!found) {
    found = atomWithStorage<WizardState | null>(key, null, storage, { getOnInit: true });
    atoms.set(key, found);
  }
  return found;
}
const noWizard = atom<WizardState | null>(null);

/** The wizard of this user for this card; `start` makes one when there is none yet. */
export function useWizard(userId: string | undefined, cardId: string) {
  const [state, setState] = useAtom(userId ? wizardAtom(`card-grader:submit-card:${userId}:${cardId}`) : (noWizard as unknown as WizardAtom));
  const update = (change: Partial<WizardState>) => {
    if (!state) return;
    // Any change to what is priced after payment makes the payment stale: it must match the new total.
    setState({ ...state, ...change });
  };
  return {
    state,
    start: (declaredValue: string | null) => setState(initialWizardState(declaredValue)),
    update,
    /** SPEC.md §4 reset: a new wizard (a new idempotency key) for the same card. */
    reset: () => setState(null),
  };
}

export function selectionOf(state: WizardState): OrderSelectionInput {
  return {
    serviceLevel: state.serviceLevel ?? '',
    cardCleaning: state.cardCleaning,
    subgradesReport: state.subgradesReport,
    heightMap: state.heightMap,
    customShippingBox: state.customShippingBox,
    slabCards: state.slabCards,
    requireSignature: state.requireSignature,
    shippingInsurance: state.shippingInsurance,
    totalDeclaredValue: /^\d{1,7}(\.\d{1,2})?$/.test(state.totalDeclaredValue) ? state.totalDeclaredValue : '0',
  };
}

/**
 * What is wrong with the declared value for the chosen level, in the words shown beside the field on step 1, where
 * it is typed; null when it is fine. The server checks the same (src/domain/orders/quote.ts), so the wizard asks it
 * for a quote only once this says nothing: no refused quote while someone is typing.
 */
export function declaredValueProblem(typed: string, level: Pick<ServiceLevel, 'name' | 'max_declared_value'> | undefined): string | null {
  const parsed = orderSelectionSchema.shape.totalDeclaredValue.safeParse(typed);
  if (!parsed.success) return 'Declared value must be an amount in dollars, like 120 or 120.50';
  const dollars = Number(typed);
  if (dollars <= 0) return 'Declared value must be more than $0: it is what the card is insured and protected for.';
  if (level && dollars > level.max_declared_value) {
    return `${level.name} protects cards declared up to $${level.max_declared_value.toLocaleString('en-US')}. Please choose a higher service level.`;
  }
  return null;
}
