// An "Export" menu: the findings export formats the API offers (json, csv and pdf as the hosted platform;
// SARIF 2.1.0 and Markdown, Vigil's). The file comes back as the answer to an authenticated request (the
// session cookie, never a token in a URL) and is handed to the browser as a download.
import { Button, Menu } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { ApiFailure, type ErrorBody } from '../api/client';
import { ErrorState } from './States';

export const EXPORT_FORMATS = [
  { value: 'json', label: 'JSON' },
  { value: 'csv', label: 'CSV' },
  { value: 'pdf', label: 'PDF' },
  { value: 'sarif', label: 'SARIF 2.1.0' },
  { value: 'markdown', label: 'Markdown' },
] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number]['value'];

/** What an export call answers: the file (openapi-fetch with parseAs: 'blob'). */
export type ExportCall = (format: ExportFormat) => Promise<{ data?: Blob; error?: unknown; response: Response }>;

/** Saves a downloaded file under the name the server gave (Content-Disposition), or `fallback`. */
export function saveFile(blob: Blob, response: Response, fallback: string): void {
  const named = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = named ?? fallback;
  document.body.append(a);
  a.click();
  a.remove();
  // The download has its own copy once click() returns; the object URL is freed a moment later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Runs the export and saves the file; a refusal throws the server's error body. */
async function download(call: ExportCall, format: ExportFormat): Promise<void> {
  const res = await call(format);
  // openapi-fetch parses an error answer as JSON whatever parseAs says: the server's error body.
  if (res.error !== undefined || !res.data) throw new ApiFailure(res.response.status, res.error as ErrorBody);
  saveFile(res.data, res.response, `findings.${format === 'markdown' ? 'md' : format}`);
}

export function ExportMenu({
  call,
  label = 'Export',
  disabled,
  variant = 'default',
}: {
  call: ExportCall;
  label?: string;
  disabled?: boolean;
  variant?: string;
}) {
  const run = useMutation({ mutationFn: (format: ExportFormat) => download(call, format) });
  return (
    <>
      <Menu position="bottom-start" withinPortal>
        <Menu.Target>
          <Button variant={variant} disabled={disabled} loading={run.isPending}>
            {label}
          </Button>
        </Menu.Target>
        <Menu.Dropdown aria-label={label}>
          {EXPORT_FORMATS.map((f) => (
            <Menu.Item key={f.value} onClick={() => run.mutate(f.value)}>
              {f.label}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      {run.error && <ErrorState error={run.error} title="Export failed" />}
    </>
  );
}
