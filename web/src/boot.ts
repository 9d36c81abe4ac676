// Runs first, before the main bundle is evaluated (its own small script in index.html): asks for the
// session right away, so the answer is on its way while the browser compiles and runs the rest of the
// console, instead of being asked for only once the router starts. The session query (session.tsx) takes
// this answer once, for the team it was asked for; every later query asks the server again. Pages that
// need no session (sign-in, invite) do not ask.
const TEAM_KEY = 'vigil.team'; // the same key as api/client.ts

interface EarlySession {
  team: string | undefined;
  response: Promise<Response>;
}

let early: EarlySession | undefined;
if (!/^\/(sign-in|invite)(\/|$)/.test(window.location.pathname)) {
  const team = localStorage.getItem(TEAM_KEY) ?? undefined;
  const response = fetch('/v1/auth/session', {
    credentials: 'same-origin',
    headers: team ? { 'X-Team-Id': team } : {},
  });
  // Taken or not, a failed request is never an unhandled rejection (the taker sees it).
  response.catch(() => {});
  early = { team, response };
}

/** The early session answer, once, when it was asked for the given team; else undefined. */
export function takeEarlySession(team: string | undefined): Promise<Response> | undefined {
  const e = early;
  early = undefined;
  return e && e.team === team ? e.response : undefined;
}
