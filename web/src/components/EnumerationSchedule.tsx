// An enumeration's rescan schedule on its page (POST / DELETE /v1/enumeration/schedule, the scan
// schedules' fields), through the shared ScheduleCard.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../api/client';
import { ScheduleCard } from './ScheduleCard';
import { scheduleFields } from './ScheduleFields';

export function EnumerationSchedule({ enumerationId }: { enumerationId: string }) {
  const qc = useQueryClient();
  const schedules = useQuery({
    queryKey: ['enumeration-schedules'],
    queryFn: async () => (await ok(api.GET('/v1/enumeration/schedule'))).schedules,
  });
  const schedule = schedules.data?.find((s) => s.enumeration_id === enumerationId);
  // Shown as a time of day ("06:30:00Z"): the fields take it without the zone.
  const shown = schedule && { ...schedule, start_time: schedule.start_time?.replace(/Z$/, '') };
  return (
    <ScheduleCard
      schedule={shown}
      words={{
        verb: 'Rescans',
        none: schedules.isPending ? 'Loading the schedule' : 'No rescan schedule',
        add: 'Schedule rescans',
        title: 'Rescan schedule',
      }}
      ids={{
        card: 'enumeration-schedule',
        summary: 'enumeration-schedule-summary',
        next: 'enumeration-schedule-next',
        edit: 'edit-enumeration-schedule',
        remove: 'remove-enumeration-schedule',
        save: 'save-enumeration-schedule',
        saveError: 'enumeration-schedule-error',
      }}
      save={(v) =>
        ok(api.POST('/v1/enumeration/schedule', { body: { enumeration_id: enumerationId, ...scheduleFields(v) } }))
      }
      remove={() =>
        ok(api.DELETE('/v1/enumeration/schedule', { params: { query: { enumeration_id: enumerationId } } }))
      }
      onChanged={() => qc.invalidateQueries({ queryKey: ['enumeration-schedules'] })}
      error={schedules.error}
    />
  );
}
