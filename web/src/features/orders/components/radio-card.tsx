import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

/** One choice of a radio group drawn as a card: the whole card is the label, the ring shows keyboard focus. */
export function RadioCard({
  name,
  value,
  selected,
  onSelect,
  label,
  align = 'center',
  children,
}: {
  name: string;
  value: string;
  selected: boolean;
  onSelect: () => void;
  /** The radio's accessible name, when the card's text would be too long for one. */
  label?: string;
  align?: 'center' | 'start';
  children: ReactNode;
}) {
  return (
    <label
      className={cn(
        'flex cursor-pointer gap-3 rounded-lg border p-4 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
        align === 'center' ? 'items-center' : 'items-start',
        selected ? 'border-primary bg-accent/60' : 'hover:bg-secondary',
      )}
    >
      <input
        type="radio"
        name={name}
        value={value}
        checked={selected}
        onChange={onSelect}
        className={cn('size-4 accent-primary', align === 'start' && 'mt-1')}
        {...(label ? { 'aria-label': label } : {})}
      />
      {children}
    </label>
  );
}
