// The partner booking route end to end over one shared catalogue: making bookings and holds, and their waiver answers.
import { createPartnerBooking } from '../../shared/booking/partner-bookings';
import { REFERENCE_ALPHABET } from '../../shared/booking/constants';
import { addDays } from '../../shared/core/calendar';
import { expectProblem } from '../support/problems';
import { answers, BOOKING, bookingBody, customer, partnerBookingWorld } from '../support/partner-bookings';

const { world, start, freshDate, book, vacancies, booked, storedReferences } = partnerBookingWorld();

describe('POST booking', () => {
  it('creates a confirmed booking: 201, a Location to read it back, and the places taken', async () => {
    const date = freshDate();
    const response = await book(bookingBody(date, { PaymentReference: 'pay_778899', Answers: answers }));
    expect(response.status).toBe(201);
    const data = response.json.data;
    expect(data).toEqual({
      BookingReference: expect.stringMatching(new RegExp(`^[${REFERENCE_ALPHABET}]{10}$`)),
      Status: 'CONFIRMED',
      Channel: 'ota',
      PartnerKeyID: expect.stringMatching(/^key_/),
      PaymentReference: 'pay_778899',
      ActivityID: 's_walk1',
      ProductID: 501,
      ActivityName: 'Harbour Walking Tour',
      Date: date,
      Time: '09:00',
      StartsAt: expect.stringMatching(new RegExp(`^${date}T09:00:00\\+0[01]:00$`)),
      Participants: 2,
      TotalPrice: { Amount: 4000, Currency: 'EUR' },
      Customer: customer,
      WaiverStatus: 'COMPLETE',
      Answers: answers,
      CreatedAt: expect.any(String),
    });
    expect(response.headers.get('location')).toBe(`${BOOKING}/${data.BookingReference}`);
    const readBack = await world.request('GET', response.headers.get('location') as string, { key: world.operator.key });
    expect(readBack.status).toBe(200);
    expect(readBack.json.data).toEqual(data);
    expect(await vacancies(date)).toBe(8);
  });

  it('accepts a customer without Phone, and a booking without Answers as waiver pending', async () => {
    const withoutPhone = { FirstName: 'Rui', LastName: 'Costa', Email: 'rui@example.com' };
    const response = await book(bookingBody(freshDate(), { Customer: withoutPhone }));
    expect(response.status).toBe(201);
    expect(response.json.data.Customer).toEqual(withoutPhone);
    expect(response.json.data.WaiverStatus).toBe('PENDING');
    expect(response.json.data).not.toHaveProperty('Answers');
  });

  it('answers 422 naming the field for every kind of bad body, and writes nothing', async () => {
    const date = freshDate();
    const before = await storedReferences();
    const noEmail = { FirstName: 'Ana', LastName: 'Silva' };
    const cases: [unknown, RegExp][] = [
      [{ ...bookingBody(date), ActivityID: undefined }, /'ActivityID' is required/],
      [{ ...bookingBody(date), Date: undefined }, /'Date' is required/],
      [{ ...bookingBody(date), Time: undefined }, /'Time' is required/],
      [{ ...bookingBody(date), Participants: undefined }, /'Participants' is required/],
      [{ ...bookingBody(date), Customer: undefined }, /'Customer' is required/],
      [bookingBody(date, { Customer: noEmail }), /'Customer.Email' is required/],
      [bookingBody(date, { ActivityID: 42 }), /'ActivityID'/],
      [bookingBody(date, { Date: '2026-02-30' }), /'Date'/],
      [bookingBody(date, { Date: 20270101 }), /'Date'/],
      [bookingBody(date, { Time: '9am' }), /'Time'/],
      [bookingBody(date, { Participants: 0 }), /'Participants'/],
      [bookingBody(date, { Participants: -1 }), /'Participants'/],
      [bookingBody(date, { Participants: 1.5 }), /'Participants'/],
      [bookingBody(date, { Participants: '2' }), /'Participants'/],
      [bookingBody(date, { Participants: 11 }), /'Participants' is 11; .* at most 10/],
      [bookingBody(date, { Customer: { ...customer, Email: 'ana-at-example.com' } }), /'Customer.Email'/],
      [bookingBody(date, { Customer: { ...customer, Phone: '912 345 678' } }), /'Customer.Phone' must be in E.164/],
      [bookingBody(date, { Customer: { ...customer, FirstName: '   ' } }), /'Customer.FirstName'/],
      [bookingBody(date, { Customer: { ...customer, Nickname: 'A' } }), /'Customer.Nickname' is not allowed/],
      [bookingBody(date, { Coupon: 'FREE' }), /'Coupon' is not allowed/],
      [bookingBody(date, { Time: '10:30' }), /'Time' 10:30 is not a timeslot/],
      [bookingBody(addDays(start, 300)), /'Time' 09:00 is not a timeslot .* on /],
      [bookingBody(addDays(start, -2)), /'Date' .* is in the past/],
      [bookingBody(date, { PaymentReference: '' }), /'PaymentReference'/],
      [[bookingBody(date)], /The request body must be a JSON object/],
      [null, /The request body must be a JSON object/],
      [bookingBody(date, { Customer: { ...customer, LastName: 'Silva\u0000' } }), /'Customer.LastName' .*without control characters/],
      [bookingBody('2026-02-30'), /'Date' must be a real calendar date/],
    ];
    for (const [body, detail] of cases) expectProblem(await book(body), 422, { detail });
    expect(await booked(date)).toBe(0);
    expect(await storedReferences()).toEqual(before);
  });

  it('answers 400 for a malformed ActivityID and 404 for an unknown or hidden one', async () => {
    const date = freshDate();
    for (const bad of ['walk1', 's_', 's_bad-id'])
      expectProblem(await book(bookingBody(date, { ActivityID: bad })), 400, { detail: /'ActivityID'/ });
    expectProblem(await book(bookingBody(date, { ActivityID: 's_nothere' })), 404);
    expectProblem(await book(bookingBody(start, { ActivityID: 's_hidden1', Time: '10:00' })), 404);
  });

  it('answers a body that is not JSON, or not sent as JSON, with a 4xx problem', async () => {
    expectProblem(
      await world.request('POST', BOOKING, {
        key: world.operator.key,
        rawBody: '{"ActivityID": ',
        headers: { 'Content-Type': 'application/json' },
      }),
      400,
      { detail: /not valid JSON/ },
    );
    expectProblem(
      await world.request('POST', BOOKING, {
        key: world.operator.key,
        rawBody: JSON.stringify(bookingBody(freshDate())),
        headers: { 'Content-Type': 'text/plain' },
      }),
      415,
    );
    expectProblem(
      await world.request('POST', BOOKING, { key: world.operator.key, rawBody: JSON.stringify(bookingBody(freshDate())) }),
      415,
    );
    expectProblem(await world.request('POST', BOOKING, { key: world.operator.key, headers: { 'Content-Type': 'application/json' } }), 422);
  });

  it('takes the media type in any case and with parameters, as HTTP defines it', async () => {
    for (const contentType of [
      'APPLICATION/JSON',
      'application/json; charset=utf-8',
      'Application/Json;Charset=UTF-8',
      'application/json ; charset=utf-8',
    ]) {
      const response = await world.request('POST', BOOKING, {
        key: world.operator.key,
        rawBody: JSON.stringify(bookingBody(freshDate())),
        headers: { 'Content-Type': contentType },
      });
      expect(response.status).toBe(201);
    }
  });

  it('refuses a timeslot that has already started today, in the operator time zone', async () => {
    const date = freshDate();
    const caller = { operatorId: world.operator.operatorId, keyId: 'key_direct', scopes: ['ota'], timeZone: 'Europe/Lisbon' };
    const at = (time: string) => new Date(`${date}T${time}:00Z`); // Lisbon is UTC+0 or UTC+1: 09:00 local is 08:00Z or 09:00Z.
    await expect(createPartnerBooking(caller, bookingBody(date), undefined, at('09:30'))).rejects.toThrow(
      expect.objectContaining({ field: 'Time', message: expect.stringMatching(/^09:00 has already started/) }),
    );
    await expect(createPartnerBooking(caller, bookingBody(date, { Time: '14:00' }), undefined, at('09:30'))).resolves.toMatchObject({
      booking: { Status: 'CONFIRMED' },
    });
    expect(await booked(date)).toBe(0);
  });

  it('answers 409 when the timeslot lacks capacity, and takes nothing', async () => {
    const date = freshDate();
    expect((await book(bookingBody(date, { Participants: 7 }))).status).toBe(201);
    const before = await storedReferences();
    expectProblem(await book(bookingBody(date, { Participants: 4 })), 409, { detail: /3 place\(s\) left; 4 were requested/ });
    expect(await booked(date)).toBe(7);
    expect(await storedReferences()).toEqual(before);
    expect((await book(bookingBody(date, { Participants: 3 }))).status).toBe(201);
    expectProblem(await book(bookingBody(date, { Participants: 1 })), 409);
    expect(await vacancies(date)).toBe(0);
  });
});

describe('waiver answers', () => {
  it('requires every required question once Answers is sent, naming the missing ones', async () => {
    const date = freshDate();
    const response = await book(bookingBody(date, { Answers: [{ QuestionID: 'q_diet', Value: 'none' }] }));
    expectProblem(response, 422, { detail: /'Answers' lacks required question\(s\): q_name, q_doc/ });
    expect(response.json.missingQuestions).toEqual(['q_name', 'q_doc']);
    expectProblem(await book(bookingBody(date, { Answers: [] })), 422, { detail: /q_name, q_doc/ });
    expect(await booked(date)).toBe(0);
  });

  it('checks each answer against its question', async () => {
    const date = freshDate();
    const cases: [unknown[], RegExp][] = [
      [[...answers, { QuestionID: 'q_unknown', Value: 'x' }], /'Answers\[2\].QuestionID' 'q_unknown' is not a question/],
      [[...answers, { QuestionID: 'q_name', Value: 'again' }], /'Answers\[2\].QuestionID' 'q_name' is answered twice/],
      [[answers[0], { QuestionID: 'q_doc', Value: 'waiver.pdf' }], /'Answers\[1\].Value' .*FILE_UPLOAD.* https URL/],
      [[answers[0], { QuestionID: 'q_doc', Value: 'http://files.example/w.pdf' }], /https URL/],
      [[{ QuestionID: 'q_name', Value: '  ' }, answers[1]], /'Answers\[0\].Value' .*must not be blank/],
      [[{ QuestionID: 'q_name' }, answers[1]], /'Answers\[0\].Value' is required/],
      [[{ ...answers[0], Extra: 1 }, answers[1]], /'Answers\[0\].Extra' is not allowed/],
    ];
    for (const [list, detail] of cases) expectProblem(await book(bookingBody(date, { Answers: list })), 422, { detail });
    expect(await booked(date)).toBe(0);
  });
});
