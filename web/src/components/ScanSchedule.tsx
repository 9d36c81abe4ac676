// A scan's schedule on its page (POST / DELETE /v1/scans/schedule), through the shared ScheduleCard.
import { useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../api/client';
import { ScheduleCard, type ShownSchedule } from './ScheduleCard';
import { scheduleBody } from './ScheduleFields';

export function ScanSchedule({
  scanId,
  schedule,
  uploaded,
}: {
  scanId: string;
  schedule?: ShownSchedule;
  uploaded: boolean;
}) {
  const qc = useQueryClient();
  if (uploaded && !schedule) return null; // an imported scan has nothing to run
  return (
    <ScheduleCard
      schedule={schedule}
      words={{ verb: 'Runs', none: 'Not scheduled', add: 'Schedule it', title: 'Schedule' }}
      ids={{
        card: 'scan-schedule',
        summary: 'schedule-summary',
        next: 'schedule-next',
        edit: 'edit-schedule',
        remove: 'remove-schedule',
        save: 'save-schedule',
        saveError: 'schedule-save-error',
      }}
      save={(v) => ok(api.POST('/v1/scans/schedule', { body: scheduleBody(scanId, v) }))}
      remove={() => ok(api.DELETE('/v1/scans/schedule', { params: { query: { scan_id: scanId } } }))}
      onChanged={() =>
        Promise.all([
          qc.invalidateQueries({ queryKey: ['scan', scanId] }),
          qc.invalidateQueries({ queryKey: ['schedules'] }),
        ])
      }
    />
  );
}
