// Templates: catalogue search with facets (a bucket adds its filter to the query) and highlighted
// matches, a viewer for one template, and the team's private templates.
import {
  Anchor,
  Badge,
  Button,
  Card,
  Code,
  Drawer,
  Grid,
  Group,
  Pagination,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { AnchorLink, ButtonLink } from '../components/Links';
import { api, ok } from '../api/client';
import { SeverityBadge, when } from '../components/Severity';
import { EmptyState, ErrorState, LoadingState } from '../components/States';
import { templatesRoute } from '../router';
import { useMe } from '../session';
import { usePageTitle } from '../components/usePageTitle';
import { withFilter } from '../components/templateQuery';

const PAGE = 25;
const FACETS = ['severity', 'type', 'tags', 'author'] as const;

/** The server's highlighted text (HTML-escaped, matches in <em>) as React nodes, without raw HTML. */
export function Highlighted({ html }: { html: string }): ReactNode {
  const decode = (s: string) =>
    s.replace(
      /&(lt|gt|amp|quot|#39);/g,
      (_m, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', '#39': "'" })[e]!,
    );
  const parts = html.split(/(<em>|<\/em>)/);
  let on = false;
  return parts.map((p, i) => {
    if (p === '<em>') {
      on = true;
      return null;
    }
    if (p === '</em>') {
      on = false;
      return null;
    }
    return on ? <mark key={i}>{decode(p)}</mark> : <span key={i}>{decode(p)}</span>;
  });
}

export default function Templates() {
  usePageTitle('Templates');
  const search = templatesRoute.useSearch();
  const navigate = useNavigate({ from: '/templates' });
  const me = useMe();
  const [q, setQ] = useState(search.q ?? '');
  const page = search.page ?? 1;
  const tab = search.tab ?? 'catalogue';

  const results = useQuery({
    queryKey: ['templates', search.q, page],
    enabled: tab === 'catalogue',
    queryFn: () =>
      ok(
        api.GET('/v2/template/search', {
          params: {
            query: {
              q: search.q,
              limit: PAGE,
              offset: (page - 1) * PAGE,
              highlight: true,
              facet_size: 8,
              fields: 'id,name,severity,tags,type,uri,author,description,template_type,template_id,is_signed,signed_by',
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const privates = useQuery({
    queryKey: ['private-templates'],
    enabled: tab === 'private',
    queryFn: () => ok(api.GET('/v1/template', { params: { query: { limit: 500 } } })),
  });
  const viewing = useQuery({
    queryKey: ['template-view', search.view],
    enabled: !!search.view,
    queryFn: () =>
      ok(api.GET('/v1/template/public/{template_id}', { params: { path: { template_id: search.view! } } })),
  });

  const addFilter = (field: string, value: string) => {
    const next = withFilter(search.q ?? '', field, value);
    setQ(next);
    void navigate({ search: (s) => ({ ...s, q: next, page: undefined }) });
  };

  return (
    <Stack>
      <Title order={2}>Templates</Title>
      <Tabs
        value={tab}
        onChange={(v) => navigate({ search: (s) => ({ ...s, tab: v === 'catalogue' ? undefined : (v ?? undefined) }) })}
      >
        <Tabs.List>
          <Tabs.Tab value="catalogue">Catalogue</Tabs.Tab>
          <Tabs.Tab value="private">Private templates</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="catalogue" pt="md">
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void navigate({ search: (s) => ({ ...s, q: q || undefined, page: undefined }) });
            }}
          >
            <Group>
              <TextInput
                flex={1}
                placeholder="Search: words, severity:high, tags:wordpress, author:pdteam, NOT ..."
                value={q}
                onChange={(e) => setQ(e.currentTarget.value)}
                aria-label="template query"
              />
              <Button type="submit">Search</Button>
            </Group>
          </form>
          {results.isPending ? (
            <LoadingState />
          ) : results.error ? (
            <ErrorState error={results.error} />
          ) : (
            <Grid mt="md">
              <Grid.Col span={{ base: 12, md: 3 }}>
                <Stack data-testid="facets">
                  {FACETS.map((f) => {
                    const facet = (
                      results.data.facets as Record<string, { buckets: Record<string, number> } | undefined>
                    )[f];
                    const buckets = Object.entries(facet?.buckets ?? {});
                    if (!buckets.length) return null;
                    return (
                      <Card key={f} withBorder p="xs">
                        <Text fw={600} size="sm" tt="capitalize">
                          {f}
                        </Text>
                        {buckets.map(([value, n]) => (
                          <Group key={value} justify="space-between" gap={4}>
                            <Anchor
                              size="sm"
                              component="button"
                              onClick={() => addFilter(f, value)}
                              data-facet={`${f}:${value}`}
                            >
                              {value}
                            </Anchor>
                            <Text size="xs" c="dimmed">
                              {n}
                            </Text>
                          </Group>
                        ))}
                      </Card>
                    );
                  })}
                </Stack>
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 9 }}>
                {results.data.results.length === 0 ? (
                  <EmptyState>No template matches</EmptyState>
                ) : (
                  <Stack>
                    <Text size="sm" c="dimmed" data-testid="template-total">
                      {results.data.total} templates
                    </Text>
                    <Table striped data-testid="templates-table">
                      <Table.Tbody>
                        {results.data.results.map((t) => (
                          <Table.Tr key={t.uri ?? t.template_id}>
                            <Table.Td>
                              <SeverityBadge severity={t.severity} />
                            </Table.Td>
                            <Table.Td>
                              <Anchor
                                component="button"
                                onClick={() =>
                                  t.template_type && t.template_type !== 'public' && t.template_id
                                    ? navigate({
                                        to: '/templates/private/$templateId',
                                        params: { templateId: t.template_id },
                                      })
                                    : navigate({ search: (s) => ({ ...s, view: t.uri }) })
                                }
                              >
                                <Highlighted html={t.name ?? t.id ?? ''} />
                              </Anchor>
                              <Text size="xs" c="dimmed">
                                {t.uri}
                              </Text>
                            </Table.Td>
                            <Table.Td>
                              <Group gap={4}>
                                {(t.tags ?? []).slice(0, 5).map((g) => (
                                  <Badge key={g} size="xs" variant="outline">
                                    {g}
                                  </Badge>
                                ))}
                              </Group>
                            </Table.Td>
                            <Table.Td data-testid="template-signature">
                              {/* Whether a trusted key signed the template (its # digest: line), and whose. */}
                              {t.is_signed ? (
                                <>
                                  <Badge size="xs" color="teal" variant="light">
                                    signed
                                  </Badge>
                                  <Text size="xs" c="dimmed">
                                    {t.signed_by}
                                  </Text>
                                </>
                              ) : (
                                <Badge size="xs" color="gray" variant="outline">
                                  unsigned
                                </Badge>
                              )}
                            </Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                    <Pagination
                      total={Math.max(1, Math.ceil(results.data.total / PAGE))}
                      value={page}
                      onChange={(p) => navigate({ search: (s) => ({ ...s, page: p === 1 ? undefined : p }) })}
                    />
                  </Stack>
                )}
              </Grid.Col>
            </Grid>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="private" pt="md">
          <Stack>
            {me.canManage && (
              <Group>
                <ButtonLink
                  to="/templates/private/$templateId"
                  params={{ templateId: 'new' }}
                  data-testid="new-template"
                >
                  New private template
                </ButtonLink>
              </Group>
            )}
            {privates.isPending ? (
              <LoadingState />
            ) : privates.error ? (
              <ErrorState error={privates.error} />
            ) : privates.data.results.length === 0 ? (
              <EmptyState>The team has no private templates yet</EmptyState>
            ) : (
              <Table striped data-testid="private-templates">
                <Table.Tbody>
                  {privates.data.results.map((t) => (
                    <Table.Tr key={t.template_id}>
                      <Table.Td>
                        <SeverityBadge severity={t.severity} />
                      </Table.Td>
                      <Table.Td>
                        <AnchorLink to="/templates/private/$templateId" params={{ templateId: t.template_id! }}>
                          {t.name}
                        </AnchorLink>
                        <Text size="xs" c="dimmed">
                          {t.id}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="xs">{when(t.updated_at)}</Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Stack>
        </Tabs.Panel>
      </Tabs>
      <Drawer
        opened={!!search.view}
        onClose={() => navigate({ search: (s) => ({ ...s, view: undefined }) })}
        position="right"
        size="xl"
        title="Template"
      >
        {viewing.isPending ? (
          <LoadingState />
        ) : viewing.error ? (
          <ErrorState error={viewing.error} />
        ) : (
          <Stack data-testid="template-viewer">
            <Group>
              <SeverityBadge severity={viewing.data.template.severity} />
              <Title order={4}>{viewing.data.template.name}</Title>
            </Group>
            <Text size="sm">{viewing.data.template.description}</Text>
            <Code block>{viewing.data.template.raw}</Code>
          </Stack>
        )}
      </Drawer>
    </Stack>
  );
}
