// Create an asset policy (the form is PolicyForm's).
import { Stack, Title } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { api, ok } from '../../api/client';
import { ErrorState } from '../../components/States';
import { useMe } from '../../session';
import { PolicyForm } from './PolicyForm';
import { usePageTitle } from '../../components/usePageTitle';

export default function NewPolicy() {
  usePageTitle('New asset policy');
  const me = useMe();
  const navigate = useNavigate();
  if (!me.canManage)
    return <ErrorState error={new Error(`role ${me.role} may not create asset policies`)} title="Not allowed" />;
  return (
    <Stack maw={900}>
      <Title order={2}>New asset policy</Title>
      <PolicyForm
        submitLabel="Create policy"
        submitTestId="create-policy"
        onSubmit={async (body) => {
          const out = await ok(api.POST('/v1/asset/policy', { body }));
          await navigate({ to: '/assets/policies/$policyId', params: { policyId: out.id } });
        }}
      />
    </Stack>
  );
}
