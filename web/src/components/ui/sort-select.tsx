import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from './select';

/** A list's sort menu: the default sort is left out of the URL (undefined). */
export function SortSelect<T extends string>({
  value,
  defaultValue,
  options,
  onChange,
  className,
}: {
  value: T | undefined;
  defaultValue: T;
  options: readonly { value: T; label: string }[];
  onChange: (sort: T | undefined) => void;
  className?: string;
}) {
  return (
    <Select value={value ?? defaultValue} onValueChange={(sort) => onChange(sort === defaultValue ? undefined : (sort as T))}>
      <SelectTrigger aria-label="Sort" className={className}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {options.map((option) => (
          <SelectItem key={option.value} value={option.value}>
            {option.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
