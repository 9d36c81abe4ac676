// Bulk actions of the Findings list beyond status: labels, retest and export, on the selected findings or
// on every finding the filter matches. Export is for everyone who reads findings; labels and retests for
// Admins and the Owner (the API refuses the others anyway).
//
// The labels and retest operations take finding ids (PATCH /v1/scans/vulns/labels and
// POST /v1/scans/{vuln_id}/retest, as the hosted platform's): for "all matching" the ids come from the
// list itself, read with the same filter. The export takes the filter as its body
// (POST /v1/scans/results/export), so nothing is read first.
import { Button, Group, Paper, SegmentedControl, TagsInput, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api/client';
import { ExportMenu, type ExportFormat } from './ExportMenu';
import { ErrorState } from './States';

/** The Findings page's filter, as its address holds it. */
export interface FindingsFilter {
  severity?: string;
  host?: string;
  template?: string;
  tags?: string;
  time?: string;
  q?: string;
  scan?: string;
  status?: string;
}

/** Labels go to at most this many findings at once (the API's limit on ids). */
export const MAX_LABEL_IDS = 10_000;
/** Each retest is a small scan: more than this at once is refused here with a message. */
export const MAX_RETESTS = 50;

const split = (v: string | undefined) => (v ? v.split(',').filter(Boolean) : undefined);

/** The list's query for a filter (GET /v1/scans/results). */
export function listQuery(f: FindingsFilter) {
  return {
    severity: f.severity,
    host: f.host,
    templates: f.template,
    tags: f.tags,
    time: f.time,
    search: f.q,
    scan_id: f.scan,
    vuln_status: f.status,
  };
}

/** Every id the filter matches, read page by page from the list (newest first), at most `cap`. */
async function matchingIds(f: FindingsFilter, cap: number): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ids.length < cap; offset += 1000) {
    const page = await ok(
      api.GET('/v1/scans/results', {
        params: { query: { ...listQuery(f), limit: 1000, offset, sort_desc: 'created_at' } },
      }),
    );
    ids.push(...page.data.map((r) => r.vuln_id));
    if (page.data.length < 1000) break;
  }
  return ids.slice(0, cap);
}

/** The export body for a filter: the same fields, named as the export takes them. */
function exportBody(f: FindingsFilter) {
  return {
    severity: split(f.severity),
    host: split(f.host),
    template: split(f.template),
    category: split(f.tags),
    search: f.q,
    scan_ids: f.scan ? [f.scan] : undefined,
    vuln_status: f.status,
    time: f.time as 'last_day' | undefined,
  };
}

export function FindingsBulk({
  selected,
  filter,
  total,
  canManage,
  onDone,
}: {
  selected: string[];
  filter: FindingsFilter;
  total: number;
  canManage: boolean;
  onDone: () => void;
}) {
  const [scope, setScope] = useState<'selected' | 'all'>('selected');
  const [labels, setLabels] = useState<string[]>([]);
  const [note, setNote] = useState<string>();
  const onSelection = scope === 'selected';
  const count = onSelection ? selected.length : total;
  const ids = (cap: number) => (onSelection ? Promise.resolve(selected.slice(0, cap)) : matchingIds(filter, cap));

  const setLabelsOf = useMutation({
    mutationFn: async () => {
      if (count > MAX_LABEL_IDS) throw new Error(`labels go to at most ${MAX_LABEL_IDS} findings at once`);
      const chosen = await ids(MAX_LABEL_IDS);
      const res = await ok(api.PATCH('/v1/scans/vulns/labels', { body: { ids: chosen, labels } }));
      return res.message;
    },
    onSuccess: (message) => {
      setNote(message);
      onDone();
    },
  });
  const retest = useMutation({
    mutationFn: async () => {
      if (count > MAX_RETESTS)
        throw new Error(`${count} findings: retest at most ${MAX_RETESTS} at once (each is a small scan)`);
      const chosen = await ids(MAX_RETESTS);
      // One after another: each retest is a scan of its own, queued like any other.
      for (const [i, id] of chosen.entries()) {
        setNote(`Starting retest ${i + 1} of ${chosen.length}…`);
        await ok(api.POST('/v1/scans/{vuln_id}/retest', { params: { path: { vuln_id: id } }, body: {} }));
      }
      return `${chosen.length} retest${chosen.length === 1 ? '' : 's'} started`;
    },
    onSuccess: (message) => {
      setNote(message);
      onDone();
    },
    onError: () => setNote(undefined),
  });
  const exportCall = (format: ExportFormat) =>
    api.POST('/v1/scans/results/export', {
      params: { query: { type: format } },
      body: onSelection ? { ids: selected } : exportBody(filter),
      parseAs: 'blob',
    });
  const failure = setLabelsOf.error ?? retest.error;
  const none = count === 0;

  return (
    <Paper withBorder p="xs" data-testid="bulk-actions">
      <Group align="center" gap="sm">
        <SegmentedControl
          aria-label="Findings the actions apply to"
          size="xs"
          value={scope}
          onChange={(v) => {
            setScope(v as 'selected' | 'all');
            setNote(undefined);
          }}
          data={[
            { value: 'selected', label: `Selected (${selected.length})` },
            { value: 'all', label: `All ${total} matching` },
          ]}
        />
        {canManage && (
          <>
            <TagsInput
              aria-label="Labels to set"
              placeholder="Labels…"
              value={labels}
              onChange={setLabels}
              w={220}
              size="xs"
              clearable
            />
            <Button
              size="xs"
              variant="light"
              disabled={none}
              loading={setLabelsOf.isPending}
              onClick={() => setLabelsOf.mutate()}
            >
              Set labels
            </Button>
            <Button
              size="xs"
              variant="light"
              disabled={none}
              loading={retest.isPending}
              onClick={() => retest.mutate()}
            >
              Retest
            </Button>
          </>
        )}
        <ExportMenu call={exportCall} disabled={none} label={onSelection ? 'Export selected' : 'Export all matching'} />
        {note && (
          <Text size="sm" data-testid="bulk-note">
            {note}
          </Text>
        )}
      </Group>
      {canManage && (
        <Text size="xs" c="dimmed" mt={4}>
          Set labels replaces the labels of those findings (an empty list clears them).
        </Text>
      )}
      {failure && <ErrorState error={failure} />}
    </Paper>
  );
}
