// Create an enumeration (the form is EnumerationForm's): it is made and its first run starts at once.
import { Stack, Title } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { api, ok } from '../../api/client';
import { ErrorState } from '../../components/States';
import { useMe } from '../../session';
import { EnumerationForm } from './EnumerationForm';
import { usePageTitle } from '../../components/usePageTitle';

export default function NewEnumeration() {
  usePageTitle('New enumeration');
  const me = useMe();
  const navigate = useNavigate();
  if (!me.canManage)
    return <ErrorState error={new Error(`role ${me.role} may not create enumerations`)} title="Not allowed" />;
  return (
    <Stack maw={900}>
      <Title order={2}>New enumeration</Title>
      <EnumerationForm
        submitLabel="Create and run"
        submitTestId="create-enumeration"
        onSubmit={async (body) => {
          const out = await ok(api.POST('/v1/asset/enumerate', { body }));
          await navigate({ to: '/assets/$enumerationId', params: { enumerationId: out.id } });
        }}
      />
    </Stack>
  );
}
