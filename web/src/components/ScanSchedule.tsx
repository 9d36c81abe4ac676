// A scan's schedule on its page: frequency, next and last run; Admins and the Owner set, change or
// remove it (POST / DELETE /v1/scans/schedule). A refused change shows the server's message and field.
import { Alert, Button, Card, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api/client';
import { useMe } from '../session';
import {
  describeSchedule,
  NO_SCHEDULE,
  ScheduleFields,
  scheduleBody,
  scheduleValue,
  type ScheduleValue,
} from './ScheduleFields';
import { when } from './Severity';
import { fieldError } from './States';

interface Schedule {
  scan_frequency: string;
  scan_id: string;
  schedule_last_run: string;
  schedule_next_run: string;
  start_time?: string;
  hourly_frequency?: number;
  custom_weekdays?: number[];
}

export function ScanSchedule({
  scanId,
  schedule,
  uploaded,
}: {
  scanId: string;
  schedule?: Schedule;
  uploaded: boolean;
}) {
  const me = useMe();
  const qc = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState<ScheduleValue>(NO_SCHEDULE);
  const refresh = () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: ['scan', scanId] }),
      qc.invalidateQueries({ queryKey: ['schedules'] }),
    ]);
  const save = useMutation({
    mutationFn: () => ok(api.POST('/v1/scans/schedule', { body: scheduleBody(scanId, value) })),
    onSuccess: async () => {
      setEditing(false);
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => ok(api.DELETE('/v1/scans/schedule', { params: { query: { scan_id: scanId } } })),
    onSuccess: refresh,
  });
  if (uploaded && !schedule) return null; // an imported scan has nothing to run

  const open = () => {
    setValue(schedule ? scheduleValue(schedule) : { ...NO_SCHEDULE, frequency: 'daily' });
    save.reset();
    setEditing(true);
  };

  return (
    <Card withBorder data-testid="scan-schedule">
      <Group justify="space-between">
        {schedule ? (
          <Stack gap={2}>
            <Text size="sm">
              Runs <b data-testid="schedule-summary">{describeSchedule(schedule)}</b>
            </Text>
            <Text size="xs" c="dimmed">
              Next run <span data-testid="schedule-next">{when(schedule.schedule_next_run)}</span>
              {' · '}last scheduled run {schedule.schedule_last_run ? when(schedule.schedule_last_run) : 'none yet'}
            </Text>
          </Stack>
        ) : (
          <Text size="sm" c="dimmed" data-testid="schedule-summary">
            Not scheduled
          </Text>
        )}
        {me.canManage && (
          <Group gap="xs">
            <Button size="xs" variant="light" onClick={open} data-testid="edit-schedule">
              {schedule ? 'Change schedule' : 'Schedule it'}
            </Button>
            {schedule && (
              <Button
                size="xs"
                variant="light"
                color="red"
                onClick={() => remove.mutate()}
                loading={remove.isPending}
                data-testid="remove-schedule"
              >
                Remove schedule
              </Button>
            )}
          </Group>
        )}
      </Group>
      {remove.error && (
        <Alert color="red" mt="xs">
          {fieldError(remove.error)}
        </Alert>
      )}
      <Modal opened={editing} onClose={() => setEditing(false)} title="Schedule" size="lg">
        <Stack>
          <ScheduleFields value={value} onChange={setValue} allowNone={false} />
          {save.error && (
            <Alert color="red" data-testid="schedule-save-error">
              {fieldError(save.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setEditing(false)}>
              Cancel
            </Button>
            <Button onClick={() => save.mutate()} loading={save.isPending} data-testid="save-schedule">
              Save schedule
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
