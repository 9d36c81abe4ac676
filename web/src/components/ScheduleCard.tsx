// A schedule on its record's page (a scan's or an enumeration's): what it does, next and last run, and for
// Admins and the Owner a form to set or change it and a button to remove it. A refused change shows the
// server's message and field. The caller says how to save and remove and which words and test ids to use.
import { Alert, Button, Card, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useMe } from '../session';
import { describeSchedule, NO_SCHEDULE, ScheduleFields, scheduleValue, type ScheduleValue } from './ScheduleFields';
import { when } from './Severity';
import { fieldError } from './States';

export interface ShownSchedule {
  scan_frequency: string;
  start_time?: string;
  hourly_frequency?: number;
  custom_weekdays?: number[];
  schedule_next_run: string;
  schedule_last_run: string;
}

export interface ScheduleCardWords {
  /** "Runs" or "Rescans". */
  verb: string;
  /** Shown without a schedule. */
  none: string;
  /** The button that sets a first schedule. */
  add: string;
  title: string;
}

/** The test ids of the card's parts (they predate this component). */
export interface ScheduleCardIds {
  card: string;
  summary: string;
  next: string;
  edit: string;
  remove: string;
  save: string;
  saveError: string;
}

export function ScheduleCard({
  schedule,
  words,
  ids,
  save,
  remove,
  onChanged,
  error,
}: {
  schedule?: ShownSchedule;
  words: ScheduleCardWords;
  ids: ScheduleCardIds;
  save: (v: ScheduleValue) => Promise<unknown>;
  remove: () => Promise<unknown>;
  onChanged: () => Promise<unknown>;
  /** A problem loading the schedule, shown with the removal's. */
  error?: unknown;
}) {
  const me = useMe();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState<ScheduleValue>(NO_SCHEDULE);
  const saving = useMutation({
    mutationFn: () => save(value),
    onSuccess: async () => {
      setEditing(false);
      await onChanged();
    },
  });
  const removing = useMutation({ mutationFn: remove, onSuccess: onChanged });
  const open = () => {
    setValue(schedule ? scheduleValue(schedule) : { ...NO_SCHEDULE, frequency: 'daily' });
    saving.reset();
    setEditing(true);
  };
  const problem = removing.error ?? error;

  return (
    <Card withBorder data-testid={ids.card}>
      <Group justify="space-between">
        {schedule ? (
          <Stack gap={2}>
            <Text size="sm">
              {words.verb} <b data-testid={ids.summary}>{describeSchedule(schedule)}</b>
            </Text>
            <Text size="xs" c="dimmed">
              Next run <span data-testid={ids.next}>{when(schedule.schedule_next_run)}</span>
              {' · '}last scheduled run {schedule.schedule_last_run ? when(schedule.schedule_last_run) : 'none yet'}
            </Text>
          </Stack>
        ) : (
          <Text size="sm" c="dimmed" data-testid={ids.summary}>
            {words.none}
          </Text>
        )}
        {me.canManage && (
          <Group gap="xs">
            <Button size="xs" variant="light" onClick={open} data-testid={ids.edit}>
              {schedule ? 'Change schedule' : words.add}
            </Button>
            {schedule && (
              <Button
                size="xs"
                variant="light"
                color="red"
                onClick={() => removing.mutate()}
                loading={removing.isPending}
                data-testid={ids.remove}
              >
                Remove schedule
              </Button>
            )}
          </Group>
        )}
      </Group>
      {!!problem && (
        <Alert color="red" mt="xs">
          {fieldError(problem)}
        </Alert>
      )}
      <Modal opened={editing} onClose={() => setEditing(false)} title={words.title} size="lg">
        <Stack>
          <ScheduleFields value={value} onChange={setValue} allowNone={false} />
          {saving.error && (
            <Alert color="red" data-testid={ids.saveError}>
              {fieldError(saving.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setEditing(false)}>
              Cancel
            </Button>
            <Button onClick={() => saving.mutate()} loading={saving.isPending} data-testid={ids.save}>
              Save schedule
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
