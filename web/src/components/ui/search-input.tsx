import { Search } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Input } from './input';

// Typing settles for this long before the list and the URL follow it.
const SEARCH_DELAY_MS = 200;

/**
 * A search box bound to a search param: typing is sent after a short pause; when the param changes from elsewhere
 * (Clear filters, the back button) the box follows, unless it is what the box itself sent.
 */
export function SearchInput({ value, onSearch, placeholder, className }: { value: string; onSearch: (text: string | undefined) => void; placeholder: string; className?: string }) {
  const [text, setText] = useState(value);
  const sentRef = useRef(value);
  useEffect(() => {
    if (value !== sentRef.current) {
      sentRef.current = value;
      setText(value);
    }
  }, [value]);
  useEffect(() => {
    if (text === sentRef.current) return;
    const timer = setTimeout(() => {
      sentRef.current = text;
      onSearch(text || undefined);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, onSearch]);

  return (
    <div className={className ?? 'relative'}>
      <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
      <Input type="search" aria-label="Search cards" placeholder={placeholder} className="pl-9" value={text} onChange={(event) => setText(event.target.value)} />
    </div>
  );
}
