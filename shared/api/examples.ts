/** Example values shown in the OpenAPI document, one consistent story: the demo kayak tour and its booking. */
export const customer = { FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com', Phone: '+351912345678' };
export const answers = [
  { QuestionID: 'q_swim', Value: 'YES' },
  { QuestionID: 'q_id', Value: 'https://files.example.com/ana-silva-id.pdf' },
];
export const product = {
  ProductID: 1001,
  ActivityID: 's_kayak01',
  Name: 'Sunset Kayak Tour',
  Description: 'Two hours along the cliffs.',
  DurationMinutes: 120,
  MaxParticipantsPerBooking: 6,
  PricePerParticipant: { Amount: 4500, Currency: 'EUR' },
  TimeZone: 'Europe/Lisbon',
};
export const questions = [
  { QuestionID: 'q_swim', Text: 'Can every participant swim?', Type: 'YES_NO', Required: true },
  {
    QuestionID: 'q_id',
    Text: 'ID document',
    Type: 'FILE_UPLOAD',
    Required: true,
    AcceptedFileTypes: ['image/jpeg', 'application/pdf'],
    MaxFileSizeBytes: 5000000,
  },
];
export const bookingRequest = {
  ActivityID: 's_kayak01',
  Date: '2026-07-01',
  Time: '10:00',
  Participants: 2,
  Customer: customer,
  PaymentReference: 'pay_8841',
  Answers: answers,
};
export const booking = {
  BookingReference: 'K5DDMJMXFQ',
  Status: 'CONFIRMED',
  Channel: 'ota',
  PartnerKeyID: 'key_Xq3vN8aPz2Lm',
  PaymentReference: 'pay_8841',
  ActivityID: 's_kayak01',
  ProductID: 1001,
  ActivityName: 'Sunset Kayak Tour',
  Date: '2026-07-01',
  Time: '10:00',
  StartsAt: '2026-07-01T10:00:00+01:00',
  Participants: 2,
  TotalPrice: { Amount: 9000, Currency: 'EUR' },
  Customer: customer,
  WaiverStatus: 'COMPLETE',
  Answers: answers,
  CreatedAt: '2026-06-20T09:15:02.123Z',
};
export const heldBooking = { ...booking, Status: 'ON_HOLD', HoldExpiresAt: '2026-06-20T09:30:02.123Z' };
/** The booking once its personal data is erased: no Customer, no Answers, the rest as it was. */
export const erasedBooking = Object.fromEntries([
  ...Object.entries(booking).filter(([field]) => field !== 'Customer' && field !== 'Answers'),
  ['ErasedAt', '2026-07-02T10:00:00.000Z'],
]);
export const usageEntry = { ID: 3303523819094016, Meter: 'storage-gb', Usage: 0.25, OccurredAt: 1773146096 };
export const usageBatchRequest = {
  Entries: [
    { Meter: 'storage-gb', Usage: 0.25, OccurredAt: 1773146096, Identifier: 'evt_01' },
    {
      Meter: 'api-calls',
      Usage: 12,
      ExtraInfo: '{"Endpoint":"/v1/reports"}',
      Dimensions: { Region: 'eu-west', Plan: 'pro' },
      Identifier: 'evt_02',
    },
  ],
};
export const usageBatchResult = {
  Entries: [
    { ID: 3303523819094016, Meter: 'storage-gb', Usage: 0.25, OccurredAt: 1773146096, Identifier: 'evt_01', Replayed: true },
    {
      ID: 3303530402357251,
      Meter: 'api-calls',
      Usage: 12,
      OccurredAt: 1773147703,
      Dimensions: { Plan: 'pro', Region: 'eu-west' },
      Identifier: 'evt_02',
      Replayed: false,
    },
  ],
};

/** The operator's view of the kayak tour's 17:30 departure, closed for the afternoon's storm. */
export const operatorTimeslot = {
  ActivityID: 's_kayak01',
  Date: '2026-07-01',
  Time: '17:30',
  StartsAt: '2026-07-01T17:30:00+01:00',
  Capacity: 6,
  Booked: 4,
  Held: 1,
  Vacancies: 1,
  Status: 'CLOSED',
  Closed: true,
  ClosedReason: 'Storm warning: no boats go out',
  ClosedBy: 'key_Xq3vN8aPz2Lm',
  ClosedAt: '2026-07-01T11:02:10.300Z',
  CapacityChangedBy: 'key_Xq3vN8aPz2Lm',
  CapacityChangedAt: '2026-06-30T18:40:00.000Z',
};

export const confirmedHold = { ...booking, HoldExpiresAt: heldBooking.HoldExpiresAt, ConfirmedAt: '2026-06-20T09:21:40.002Z' };
export const webhookEndpoint = {
  Url: 'https://partner.example.com/hooks/ota',
  EventTypes: ['booking.confirmed', 'booking.cancelled', 'hold.expired', 'availability.changed'],
  CreatedAt: '2026-06-01T08:00:00.000Z',
  Status: 'ACTIVE',
} as const;

export const keyOperator = {
  OperatorID: 'demo',
  Name: 'Atlantic Coast Adventures',
  TimeZone: 'Europe/Lisbon',
  Key: { KeyID: 'key_Xq3vN8aPz2Lm', Scopes: ['bookings:read', 'bookings:write', 'usage:read'] },
};
export const usageLimit = {
  LimitID: 'api-calls-monthly',
  Meter: 'api-calls',
  Filter: { Plan: 'pro' },
  Period: 'MONTH',
  TimeZone: 'Europe/Lisbon',
  Amount: 150000,
  Thresholds: [50, 80, 100],
  Enforcement: 'REFUSE',
  AppliesFrom: 1772323200,
  CreatedAt: '2026-03-10T09:15:02.123Z',
  UpdatedAt: '2026-03-10T09:15:02.123Z',
};
export const usageLimitStatus = {
  LimitID: 'api-calls-monthly',
  Meter: 'api-calls',
  Used: 121500.5,
  Remaining: 28499.5,
  Amount: 150000,
  PeriodStart: 1772323200,
  ResetsAt: 1774998000,
  Allowed: true,
  Thresholds: [
    { Percent: 50, Crossed: true },
    { Percent: 80, Crossed: true },
    { Percent: 100, Crossed: false },
  ],
};
export const usageWebhookEndpoint = {
  Url: 'https://billing.example.com/hooks/usage',
  EventTypes: ['usage.threshold.crossed', 'usage.threshold.resolved'],
  CreatedAt: '2026-03-10T09:20:00.000Z',
  Status: 'ACTIVE',
} as const;

/** The examples by name, for code that shows them. */
export const example = {
  customer,
  answers,
  product,
  questions,
  bookingRequest,
  booking,
  heldBooking,
  usageEntry,
  usageLimit,
  usageLimitStatus,
  operatorTimeslot,
};
