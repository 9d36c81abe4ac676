// The signed-in frame: navigation, the user's menu, and the page. Without a session: the sign-in page.
import { AppShell, Badge, Burger, Button, Group, NavLink, Select, Stack, Text, Title } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, Outlet, useLocation, useNavigate } from '@tanstack/react-router';
import { api, ApiFailure, ok, setCsrfToken, setTeam } from '../api/client';
import { MeContext, useSessionQuery } from '../session';
import { ErrorState, LoadingState } from './States';
import { ColorSchemeToggle } from './ColorSchemeToggle';
import { MAIN_ID, SkipLink } from './SkipLink';

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
  { to: '/settings/agents', label: 'Agents', sub: true },
] as const;

/** The page is the route's (Outlet) unless given, as the not-found page gives its panel. */
export function AppLayout({ children }: { children?: React.ReactNode }) {
  const session = useSessionQuery();
  const location = useLocation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [opened, { toggle, close }] = useDisclosure();
  // Mantine's 'sm' breakpoint (48em): below it the navigation collapses behind the burger.
  const wide = useMediaQuery('(min-width: 48em)', true);
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
  const teamSwitch = teams.length > 1 && (
    <Select
      size="xs"
      w={200}
      aria-label="team"
      data-testid="team-switch"
      allowDeselect={false}
      data={teams.map((t) => ({ value: t.id, label: t.name }))}
      value={me.team_id}
      onChange={switchTeam}
    />
  );
  // The most specific entry whose path starts the address is the active one (Settings vs Configurations).
  const activeTo = NAV.filter((n) =>
    n.to === '/' ? location.pathname === '/' : location.pathname === n.to || location.pathname.startsWith(n.to + '/'),
  ).sort((a, b) => b.to.length - a.to.length)[0]?.to;

  return (
    <MeContext.Provider value={me}>
      <SkipLink />
      <AppShell
        header={{ height: 56 }}
        navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
        padding="md"
      >
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group wrap="nowrap" gap="sm">
              <Burger
                opened={opened}
                onClick={toggle}
                hiddenFrom="sm"
                size="sm"
                aria-label="navigation"
                aria-expanded={opened}
              />
              <Title order={3}>Vigil</Title>
            </Group>
            <Group wrap="nowrap" gap="sm">
              {/* On narrow screens the team, the address and the colour scheme move into the navigation. */}
              {wide && teamSwitch}
              {wide && <ColorSchemeToggle />}
              {wide && (
                <Text size="sm" data-testid="me-email">
                  {me.email}
                </Text>
              )}
              <Badge variant="light" data-testid="me-role" style={{ flexShrink: 0 }}>
                {me.role}
              </Badge>
              <Button variant="subtle" size="xs" onClick={signOut}>
                Sign out
              </Button>
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="xs" aria-label="Main navigation">
          {!wide && (
            <Stack gap="xs" mb="sm">
              <Text size="sm" data-testid="me-email">
                {me.email}
              </Text>
              {teamSwitch}
              <ColorSchemeToggle />
            </Stack>
          )}
          {NAV.map((n) => (
            <NavLink
              key={n.to}
              label={n.label}
              component={Link}
              to={n.to}
              pl={'sub' in n ? 'xl' : undefined}
              active={n.to === activeTo}
              activeOptions={{ exact: true }}
              onClick={close}
            />
          ))}
          <NavLink label="API reference" href="/docs" component="a" target="_blank" rel="noopener" mt="auto" />
        </AppShell.Navbar>
        <AppShell.Main id={MAIN_ID} tabIndex={-1}>
          {children ?? <Outlet />}
        </AppShell.Main>
      </AppShell>
    </MeContext.Provider>
  );
}
