// One finding on its own page (/findings/<vuln_id>): a link that works whatever page of the list it is on.
import { Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../api/client';
import { FindingDetail } from '../components/FindingDetail';
import { ExportMenu } from '../components/ExportMenu';
import { AnchorLink } from '../components/Links';
import { ErrorState, LoadingState } from '../components/States';
import { findingRoute } from '../router';
import { usePageTitle } from '../components/usePageTitle';

export default function Finding() {
  const { findingId } = findingRoute.useParams();
  const finding = useQuery({
    queryKey: ['finding', findingId],
    queryFn: () => ok(api.GET('/v1/scans/results/{vuln_id}', { params: { path: { vuln_id: findingId } } })),
    retry: false,
  });
  usePageTitle(`Finding ${findingId}`);
  return (
    <Stack maw={1100}>
      <Group justify="space-between">
        <Title order={2}>Finding {findingId}</Title>
        <Group gap="md">
          <AnchorLink to="/findings">All findings</AnchorLink>
          <ExportMenu
            label="Export"
            call={(type) =>
              api.GET('/v1/scans/vuln/{vuln_id}/export', {
                params: { path: { vuln_id: findingId }, query: { type } },
                parseAs: 'blob',
              })
            }
          />
          {finding.data && (
            <AnchorLink to="/scans/$scanId" params={{ scanId: finding.data.scan_id }} search={{ tab: undefined }}>
              Its scan
            </AnchorLink>
          )}
        </Group>
      </Group>
      {finding.isPending ? (
        <LoadingState label="Loading the finding" />
      ) : finding.error ? (
        <ErrorState error={finding.error} />
      ) : (
        <>
          <Text size="sm" c="dimmed">
            Host {finding.data.target}
          </Text>
          <FindingDetail finding={finding.data} />
        </>
      )}
    </Stack>
  );
}
