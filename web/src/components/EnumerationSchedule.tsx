// An enumeration's rescan schedule on its page: frequency, next and last run; Admins and the Owner set,
// change or remove it (POST / DELETE /v1/enumeration/schedule), with the scan schedules' fields.
import { Alert, Button, Card, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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

export function EnumerationSchedule({ enumerationId }: { enumerationId: string }) {
  const me = useMe();
  const qc = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState<ScheduleValue>(NO_SCHEDULE);
  const schedules = useQuery({
    queryKey: ['enumeration-schedules'],
    queryFn: async () => (await ok(api.GET('/v1/enumeration/schedule'))).schedules,
  });
  const schedule = schedules.data?.find((s) => s.enumeration_id === enumerationId);
  const refresh = () => qc.invalidateQueries({ queryKey: ['enumeration-schedules'] });
  const save = useMutation({
    mutationFn: () => {
      const { scan_id: _ignored, ...rest } = scheduleBody(enumerationId, value);
      void _ignored;
      return ok(api.POST('/v1/enumeration/schedule', { body: { enumeration_id: enumerationId, ...rest } }));
    },
    onSuccess: async () => {
      setEditing(false);
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () =>
      ok(api.DELETE('/v1/enumeration/schedule', { params: { query: { enumeration_id: enumerationId } } })),
    onSuccess: refresh,
  });
  // Shown as a time of day ("06:30:00Z"): the fields take it without the zone.
  const shown = schedule && { ...schedule, start_time: schedule.start_time?.replace(/Z$/, '') };
  const open = () => {
    setValue(shown ? scheduleValue(shown) : { ...NO_SCHEDULE, frequency: 'daily' });
    save.reset();
    setEditing(true);
  };

  return (
    <Card withBorder data-testid="enumeration-schedule">
      <Group justify="space-between">
        {shown ? (
          <Stack gap={2}>
            <Text size="sm">
              Rescans <b data-testid="enumeration-schedule-summary">{describeSchedule(shown)}</b>
            </Text>
            <Text size="xs" c="dimmed">
              Next run <span data-testid="enumeration-schedule-next">{when(shown.schedule_next_run)}</span>
              {' · '}last scheduled run {shown.schedule_last_run ? when(shown.schedule_last_run) : 'none yet'}
            </Text>
          </Stack>
        ) : (
          <Text size="sm" c="dimmed" data-testid="enumeration-schedule-summary">
            {schedules.isPending ? 'Loading the schedule' : 'No rescan schedule'}
          </Text>
        )}
        {me.canManage && (
          <Group gap="xs">
            <Button size="xs" variant="light" onClick={open} data-testid="edit-enumeration-schedule">
              {shown ? 'Change schedule' : 'Schedule rescans'}
            </Button>
            {shown && (
              <Button
                size="xs"
                variant="light"
                color="red"
                onClick={() => remove.mutate()}
                loading={remove.isPending}
                data-testid="remove-enumeration-schedule"
              >
                Remove schedule
              </Button>
            )}
          </Group>
        )}
      </Group>
      {(remove.error || schedules.error) && (
        <Alert color="red" mt="xs">
          {fieldError(remove.error ?? schedules.error)}
        </Alert>
      )}
      <Modal opened={editing} onClose={() => setEditing(false)} title="Rescan schedule" size="lg">
        <Stack>
          <ScheduleFields value={value} onChange={setValue} allowNone={false} />
          {save.error && (
            <Alert color="red" data-testid="enumeration-schedule-error">
              {fieldError(save.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setEditing(false)}>
              Cancel
            </Button>
            <Button onClick={() => save.mutate()} loading={save.isPending} data-testid="save-enumeration-schedule">
              Save schedule
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
