// "Add profile …": the catalogue's scan profiles (nuclei-templates' profiles/*.yml, kept by the catalogue
// import), each with what it is for and how many templates it selects. Picking one resolves it on the
// server to catalogue paths, which join the picked templates; keys the server does not apply are named. A
// profile selecting nothing, or more than a scan may list, is shown but cannot be picked.
import { NativeSelect } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api/client';
import { errorMessage } from './States';

export function ProfileMenu({ room, onAdd }: { room: number; onAdd(uris: string[], note: string): void }) {
  const [busy, setBusy] = useState<string>();
  const profiles = useQuery({
    queryKey: ['template-profiles'],
    queryFn: () => ok(api.GET('/v1/template/profiles')),
  });
  const list = profiles.data?.results ?? [];

  const pick = async (name: string) => {
    setBusy(name);
    try {
      const r = await ok(api.GET('/v1/template/profiles/{name}', { params: { path: { name } } }));
      const skipped = r.profile.unsupported.length ? `; not applied: ${r.profile.unsupported.join(', ')}` : '';
      onAdd(r.templates, `Added profile ${name}: ${r.templates.length} templates${skipped}`);
    } catch (err) {
      onAdd([], `Could not add profile ${name}: ${errorMessage(err)}`);
    } finally {
      setBusy(undefined);
    }
  };

  // A native select: keyboard and screen-reader behaviour come with it, and options show their counts.
  return (
    <NativeSelect
      size="xs"
      aria-label="Add profile"
      value=""
      disabled={list.length === 0 || busy !== undefined}
      title={list.length === 0 ? 'the catalogue has no scan profiles (import a checkout with profiles/)' : ''}
      onChange={(e) => {
        if (e.currentTarget.value) void pick(e.currentTarget.value);
      }}
      data-testid="add-profile"
    >
      <option value="">{busy ? `Adding profile ${busy} …` : 'Add profile …'}</option>
      {list.map((p) => (
        <option
          key={p.name}
          value={p.name}
          disabled={p.template_count === 0 || p.template_count > room}
          title={p.description ?? undefined}
        >
          {p.name} ({p.template_count.toLocaleString('en')} templates)
        </option>
      ))}
    </NativeSelect>
  );
}
