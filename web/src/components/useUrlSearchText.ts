// A search box whose text goes into the page's URL search params 300 ms after the last key: the list
// follows the URL (shareable, back button), the box stays responsive while typing.
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';

/** `current`: the value in the URL now; `commit`: writes a new one (undefined for an empty box). */
export function useUrlSearchText(
  current: string | undefined,
  commit: (value: string | undefined) => void,
): [string, (text: string) => void] {
  const [text, setText] = useState(current ?? '');
  const [debounced] = useDebouncedValue(text, 300);
  useEffect(() => {
    if ((debounced || undefined) !== current) commit(debounced || undefined);
  }, [debounced]); // eslint-disable-line react-hooks/exhaustive-deps
  return [text, setText];
}
