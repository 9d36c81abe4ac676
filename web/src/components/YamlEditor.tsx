// CodeMirror 6 with YAML mode. `check` returns problems by line; they are shown in the gutter and under
// the text where they are, as the validator reports them. `marks` are problems found elsewhere (a save
// the server refused) shown the same way until the next ones replace them.
import { useEffect, useRef } from 'react';
import { basicSetup, EditorView } from 'codemirror';
import { EditorState, type Text } from '@codemirror/state';
import { yaml } from '@codemirror/lang-yaml';
import { linter, lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';

export interface LineProblem {
  message: string;
  line?: number;
  column?: number;
}

interface Props {
  value: string;
  onChange(value: string): void;
  readOnly?: boolean;
  check?: (text: string) => Promise<LineProblem[]>;
  marks?: LineProblem[];
}

/** A problem at its line (and column when given) as a CodeMirror diagnostic: to the end of that line. */
function diagnostic(doc: Text, p: LineProblem): Diagnostic {
  const line = doc.line(Math.min(Math.max(p.line ?? 1, 1), doc.lines));
  const from = Math.min(line.from + Math.max((p.column ?? 1) - 1, 0), line.to);
  return { from, to: line.to > from ? line.to : from, severity: 'error', message: p.message };
}

export function YamlEditor({ value, onChange, readOnly, check, marks }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const checkRef = useRef(check);
  checkRef.current = check;

  useEffect(() => {
    const extensions = [
      basicSetup,
      yaml(),
      EditorView.updateListener.of((u) => {
        if (u.docChanged) onChangeRef.current(u.state.doc.toString());
      }),
      EditorState.readOnly.of(!!readOnly),
      // Screen readers name the editing area (axe: aria-input-field-name).
      EditorView.contentAttributes.of({ 'aria-label': 'YAML' }),
      // A light editor in both colour schemes: its syntax colours are made for a white background.
      EditorView.theme({
        '&': { border: '1px solid #dee2e6', fontSize: '13px', backgroundColor: '#fff', color: '#212529' },
        '.cm-scroller': { minHeight: '420px' },
      }),
    ];
    if (check) {
      extensions.push(
        lintGutter(),
        linter(
          async (v) => {
            const problems = (await checkRef.current?.(v.state.doc.toString())) ?? [];
            return problems.map((p) => diagnostic(v.state.doc, p));
          },
          { delay: 400 },
        ),
      );
    } else if (marks) extensions.push(lintGutter());
    view.current = new EditorView({ parent: host.current!, state: EditorState.create({ doc: value, extensions }) });
    return () => view.current?.destroy();
  }, [readOnly]); // eslint-disable-line react-hooks/exhaustive-deps

  // Text replaced from outside (a template loaded after the editor opened).
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value)
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);

  // Marks from outside: set on the current text (they then move with edits like the linter's own).
  useEffect(() => {
    const v = view.current;
    if (v && marks)
      v.dispatch(
        setDiagnostics(
          v.state,
          marks.filter((p) => p.line).map((p) => diagnostic(v.state.doc, p)),
        ),
      );
  }, [marks, readOnly]);

  return <div ref={host} data-testid="yaml-editor" />;
}
