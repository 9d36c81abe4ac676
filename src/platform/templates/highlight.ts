// highlight=true: matched words are wrapped in <em>...</em> and everything else is HTML-escaped, so a UI
// can insert the text as HTML. PostgreSQL marks matches with two private-use characters (removed from the
// stored text first), which become the tags only after escaping.
export const MARK_START = '\uE000';
export const MARK_STOP = '\uE001';
export const HIGHLIGHT_START = '<em>';
export const HIGHLIGHT_STOP = '</em>';

/** ts_headline options that mark matches with MARK_START / MARK_STOP over the whole text. */
export const HEADLINE_OPTIONS = `HighlightAll=true, StartSel=${MARK_START}, StopSel=${MARK_STOP}`;

/** SQL that removes the marker characters from a text expression before ts_headline sees it. */
export function withoutMarksSql(expr: string): string {
  return `translate(${expr}, '${MARK_START}${MARK_STOP}', '')`;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** Escapes text; when `marked` (ts_headline output) the markers become <em> tags, otherwise they are dropped. */
export function renderHighlight(text: string, marked: boolean): string {
  if (!marked) return escapeHtml(text.replace(/[\uE000\uE001]/g, ''));
  return escapeHtml(text).replaceAll(MARK_START, HIGHLIGHT_START).replaceAll(MARK_STOP, HIGHLIGHT_STOP);
}
