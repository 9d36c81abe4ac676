// A stored config's YAML read back as an object, and whether an alerting config listens to an event.
// Written once here: the monitor (deliveries), assets (policy checks) and team (invite mail) read them.
import yaml from 'js-yaml';
import type { ConfigRow } from './store.ts';

/** A stored config's YAML as an object ({} when it no longer parses; it was checked when written). */
export function parseConfig(c: Pick<ConfigRow, 'config'>): Record<string, unknown> {
  try {
    return (yaml.load(c.config, { schema: yaml.CORE_SCHEMA }) as Record<string, unknown>) ?? {};
  } catch {
    return {};
  }
}

/** Whether an alerting config's `events` include `event`. */
export const asksFor = (doc: Record<string, unknown>, event: string): boolean =>
  ((doc.events as string[]) ?? []).includes(event);
