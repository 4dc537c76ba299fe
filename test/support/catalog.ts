import type { CatalogFile } from '../../shared/catalog/import-catalog';
import { addDays, wallClock } from '../../shared/core/calendar';

/** Tomorrow in the given zone, so that every timeslot built from it lies in the future. */
export const tomorrow = (timeZone = 'Europe/Lisbon') => addDays(wallClock(timeZone).date, 1);

/** A two-product catalogue (one hidden) with timeslots from tomorrow for `days` days. */
export function testCatalog(options: { days?: number; capacity?: number; start?: string } = {}): CatalogFile {
  const start = options.start ?? tomorrow();
  return {
    Products: [
      {
        ProductID: 501,
        ActivityID: 's_walk1',
        Name: 'Harbour Walking Tour',
        Description: 'Ninety minutes on foot.',
        DurationMinutes: 90,
        MaxParticipantsPerBooking: 10,
        PricePerParticipant: { Amount: 2000, Currency: 'EUR' },
        Questions: [
          { QuestionID: 'q_name', Text: 'Name of the lead walker', Type: 'TEXT', Required: true },
          {
            QuestionID: 'q_doc',
            Text: 'Signed waiver',
            Type: 'FILE_UPLOAD',
            Required: true,
            AcceptedFileTypes: ['application/pdf'],
            MaxFileSizeBytes: 1_000_000,
          },
          { QuestionID: 'q_diet', Text: 'Dietary needs', Type: 'TEXT', Required: false },
        ],
        Schedules: [
          {
            From: start,
            To: addDays(start, (options.days ?? 7) - 1),
            Weekdays: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
            Times: ['09:00', '14:00'],
            Capacity: options.capacity ?? 10,
          },
        ],
      },
      {
        ProductID: 502,
        ActivityID: 's_hidden1',
        Name: 'Staff Only Tour',
        Visible: false,
        DurationMinutes: 60,
        MaxParticipantsPerBooking: 5,
        PricePerParticipant: { Amount: 1000, Currency: 'EUR' },
        Timeslots: [{ Date: start, Time: '10:00', Capacity: 5 }],
      },
    ],
  };
}
