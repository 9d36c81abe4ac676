// "Skip to content": the first thing Tab reaches on every page, hidden until focused; it moves focus to the
// page's main content (the element with id "main", tabIndex -1; styles in app.css) so keyboard users pass the navigation.
import { useCallback } from 'react';

export const MAIN_ID = 'main';

export function SkipLink() {
  const skip = useCallback((e: React.MouseEvent<HTMLAnchorElement>) => {
    // Focus, not a hash change: the router owns the address.
    e.preventDefault();
    document.getElementById(MAIN_ID)?.focus();
  }, []);
  return (
    <a href={`#${MAIN_ID}`} className="vigil-skip-link" onClick={skip} data-testid="skip-link">
      Skip to content
    </a>
  );
}
