import { useCallback, useState } from 'react';

// A yes/no the user chose once and expects to find again (issue 35: "also add to my portfolio"), kept in this browser
// under a key of its own per account, so two people sharing a browser each keep theirs. Storage that refuses (private
// modes, full quota) only means the choice is not remembered.

function read(key: string, fallback: boolean): boolean {
  try {
    const stored = localStorage.getItem(key);
    return stored === null ? fallback : stored === 'true';
  } catch {
    return fallback;
  }
}

export function useRememberedChoice(key: string, fallback: boolean): [boolean, (value: boolean) => void] {
  const [state, setState] = useState(() => ({ key, value: read(key, fallback) }));
  // Another account signed in on the same page: its own choice, read afresh.
  const value = state.key === key ? state.value : read(key, fallback);
  const set = useCallback(
    (next: boolean) => {
      setState({ key, value: next });
      try {
        localStorage.setItem(key, String(next));
      } catch {
        // Not remembered, still used for this save.
      }
    },
    [key],
  );
  return [value, set];
}
