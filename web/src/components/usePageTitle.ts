// The browser tab's title for the page on screen: "<Page> · Vigil" (just "Vigil" while the name is unknown).
import { useEffect } from 'react';

export function usePageTitle(page: string | undefined | null): void {
  useEffect(() => {
    document.title = page ? `${page} · Vigil` : 'Vigil';
  }, [page]);
}
