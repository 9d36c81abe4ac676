// The signed-in frame: navigation, the user's menu, and the page. Without a session: the sign-in page.
import { AppShell, Badge, Burger, Button, Group, NavLink, Select, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, Outlet, useLocation, useNavigate } from '@tanstack/react-router';
import { api, ApiFailure, ok, setCsrfToken, setTeam } from '../api/client';
import { MeContext, useSessionQuery } from '../session';
import { ErrorState, LoadingState } from './States';

const NAV = [
  { to: '/', label: 'Overview' },
  { to: '/scans', label: 'Scans' },
  { to: '/findings', label: 'Findings' },
  { to: '/assets', label: 'Assets' },
  { to: '/templates', label: 'Templates' },
  { to: '/vulnerabilities', label: 'Vulnerabilities' },
  { to: '/settings', label: 'Settings' },
  { to: '/settings/configs', label: 'Configurations', sub: true },
  { to: '/settings/schedules', label: 'Schedules', sub: true },
] as const;

export function AppLayout() {
  const session = useSessionQuery();
  const location = useLocation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [opened, { toggle }] = useDisclosure();
  const user = useQuery({ queryKey: ['user'], queryFn: () => ok(api.GET('/v1/user')), enabled: session.isSuccess });

  if (session.isPending) return <LoadingState label="Loading the console" />;
  if (session.error) {
    if (session.error instanceof ApiFailure && session.error.status === 401) {
      return <Navigate to="/sign-in" search={{ next: undefined }} />;
    }
    return <ErrorState error={session.error} />;
  }
  const me = session.data;

  const signOut = async () => {
    await api.POST('/v1/auth/sign-out');
    setCsrfToken(undefined);
    qc.clear();
    await navigate({ to: '/sign-in', search: { next: undefined } });
  };

  // Users in several teams (workspaces) pick the one the console works in.
  const switchTeam = async (id: string | null) => {
    if (!id || id === me.team_id) return;
    setTeam(id);
    // A fresh start in the other team: nothing of the previous team's data stays in memory.
    window.location.assign('/');
  };
  const teams = user.data?.teams ?? [];
  // The most specific entry whose path starts the address is the active one (Settings vs Configurations).
  const activeTo = NAV.filter((n) => n.to === '/' ? location.pathname === '/' : location.pathname === n.to || location.pathname.startsWith(n.to + '/'))
    .sort((a, b) => b.to.length - a.to.length)[0]?.to;

  return (
    <MeContext.Provider value={me}>
      <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between">
            <Group>
              <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="navigation" />
              <Title order={3}>Vigil</Title>
            </Group>
            <Group>
              {teams.length > 1 && (
                <Select
                  size="xs" w={200} aria-label="team" data-testid="team-switch" allowDeselect={false}
                  data={teams.map((t) => ({ value: t.id, label: t.name }))} value={me.team_id} onChange={switchTeam}
                />
              )}
              <Text size="sm" data-testid="me-email">{me.email}</Text>
              <Badge variant="light" data-testid="me-role">{me.role}</Badge>
              <Button variant="subtle" size="xs" onClick={signOut}>Sign out</Button>
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="xs">
          {NAV.map((n) => (
            <NavLink
              key={n.to} label={n.label} component={Link} to={n.to} pl={'sub' in n ? 'xl' : undefined}
              active={n.to === activeTo} activeOptions={{ exact: true }}
            />
          ))}
          <NavLink label="API reference" href="/docs" component="a" target="_blank" rel="noopener" mt="auto" />
        </AppShell.Navbar>
        <AppShell.Main>
          <Outlet />
        </AppShell.Main>
      </AppShell>
    </MeContext.Provider>
  );
}
