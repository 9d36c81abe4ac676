// New scan's catalogue picker: search the catalogue, narrow by folder, severity or tag (a bucket adds its
// filter to the query), add templates one by one or every result of the query at once ("Add all 312").
// Picked templates are catalogue paths (or folders typed as `http/cves/`), which POST /v1/scans takes as
// `templates`; a long selection is shown as a count, not as thousands of badges. "Add profile …" adds what
// one of the catalogue's scan profiles selects (ProfileMenu).
import { Anchor, Badge, Button, CloseButton, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api/client';
import { SeverityBadge } from './Severity';
import { ErrorState, errorMessage } from './States';
import { withFilter } from './templateQuery';
import { ProfileMenu } from './ProfileMenu';

/** What a scan request may list (the API's limit on `templates`). */
export const MAX_PICKED = 10_000;
const PAGE = 1000;
const NARROW = ['dir', 'severity', 'tags'] as const;
const NARROW_LABEL: Record<string, string> = { dir: 'folder', severity: 'severity', tags: 'tag' };
const BADGES_SHOWN = 30;

export function TemplatePicker({ picked, onChange }: { picked: string[]; onChange(next: string[]): void }) {
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q, 300);
  const [adding, setAdding] = useState(false);
  const [addError, setAddError] = useState<string>();
  const [profileNote, setProfileNote] = useState<string>();

  const found = useQuery({
    queryKey: ['template-pick', debounced],
    enabled: debounced.trim().length > 0,
    queryFn: () =>
      ok(
        api.GET('/v2/template/search', {
          params: { query: { q: debounced, limit: 10, fields: 'id,name,severity,uri', facet_size: 5 } },
        }),
      ),
  });
  const add = (uris: string[]) => onChange([...new Set([...picked, ...uris])].slice(0, MAX_PICKED));

  // Every result of the query, a page of 1000 at a time.
  const addAll = async (total: number) => {
    setAdding(true);
    setAddError(undefined);
    try {
      const uris: string[] = [];
      for (let offset = 0; offset < total && uris.length < MAX_PICKED; offset += PAGE) {
        const page = await ok(
          api.GET('/v2/template/search', {
            params: { query: { q: debounced, limit: PAGE, offset, fields: 'uri,id', facet_size: 0 } },
          }),
        );
        uris.push(...page.results.map((t) => t.uri ?? t.id ?? '').filter(Boolean));
        if (page.results.length < PAGE) break;
      }
      add(uris);
    } catch (err) {
      setAddError(errorMessage(err));
    } finally {
      setAdding(false);
    }
  };

  const facets = (found.data?.facets ?? {}) as Record<string, { buckets?: Record<string, number> } | undefined>;
  const total = found.data?.total ?? 0;
  return (
    <Stack gap="xs">
      <Group gap={6} data-testid="picked-templates">
        {picked.length === 0 ? (
          <Text size="sm" c="dimmed">
            None picked: search the catalogue below.
          </Text>
        ) : (
          <>
            <Text size="sm" fw={500} data-testid="picked-count">
              {picked.length} picked
            </Text>
            {picked.slice(0, BADGES_SHOWN).map((p) => (
              <Badge
                key={p}
                variant="light"
                rightSection={
                  <CloseButton
                    size="xs"
                    aria-label={`remove ${p}`}
                    onClick={() => onChange(picked.filter((x) => x !== p))}
                  />
                }
              >
                {p}
              </Badge>
            ))}
            {picked.length > BADGES_SHOWN && (
              <Text size="sm" c="dimmed">
                and {picked.length - BADGES_SHOWN} more
              </Text>
            )}
            <Button size="compact-xs" variant="subtle" color="red" onClick={() => onChange([])}>
              Clear
            </Button>
          </>
        )}
      </Group>
      <Group gap="xs">
        <ProfileMenu
          room={MAX_PICKED}
          onAdd={(uris, note) => {
            if (uris.length) add(uris);
            setProfileNote(note);
          }}
        />
        {profileNote && (
          <Text size="xs" c="dimmed" data-testid="profile-note">
            {profileNote}
          </Text>
        )}
      </Group>
      <TextInput
        placeholder="Search templates (e.g. tech, severity:high, tags:panel, dir:http/cves)"
        value={q}
        onChange={(e) => setQ(e.currentTarget.value)}
        aria-label="search templates to add"
      />
      {found.error && <ErrorState error={found.error} />}
      {addError && (
        <Text size="sm" c="red">
          {addError}
        </Text>
      )}
      {found.data && (
        <>
          <Group gap="xs" data-testid="template-narrow">
            {NARROW.flatMap((f) =>
              Object.entries(facets[f]?.buckets ?? {}).map(([value, n]) => (
                <Anchor
                  key={`${f}:${value}`}
                  size="xs"
                  component="button"
                  type="button"
                  onClick={() => setQ(withFilter(q, f, value))}
                  data-facet={`${f}:${value}`}
                >
                  {NARROW_LABEL[f]}: {value} ({n})
                </Anchor>
              )),
            )}
          </Group>
          <Group justify="space-between">
            <Text size="sm" c="dimmed" data-testid="template-pick-total">
              {total} templates match
            </Text>
            {total > 0 && (
              <Button
                size="xs"
                variant="light"
                loading={adding}
                disabled={total > MAX_PICKED}
                title={total > MAX_PICKED ? `a scan lists at most ${MAX_PICKED} templates: narrow the search` : ''}
                onClick={() => void addAll(total)}
                data-testid="add-all-results"
              >
                Add all {total}
              </Button>
            )}
          </Group>
          <Table data-testid="template-pick">
            <Table.Tbody>
              {found.data.results.map((t) => (
                <Table.Tr key={t.uri ?? t.id}>
                  <Table.Td>
                    <SeverityBadge severity={t.severity} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{t.name}</Text>
                    <Text size="xs" c="dimmed">
                      {t.uri}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      variant="light"
                      disabled={picked.includes(t.uri ?? t.id ?? '')}
                      onClick={() => add([t.uri ?? t.id ?? ''])}
                    >
                      Add
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
    </Stack>
  );
}
