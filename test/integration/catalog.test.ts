import type { LocalHost } from '../../lib/local/host';
import { MAX_DATE_RANGE_DAYS } from '../../shared/catalog/availability';
import { addDays } from '../../shared/core/calendar';
import { testCatalog, tomorrow } from '../support/catalog';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator } from '../support/fixtures';
import { expectProblem } from '../support/problems';

const OTA = '/api/v2/ota';

let host: LocalHost;
let request: HttpClient;
let operator: TestOperator;
const start = tomorrow();

beforeAll(async () => {
  operator = await createTestOperator(testCatalog({ start, days: 7 }));
  host = await startTestHost();
  request = httpClient(host);
});

afterAll(() => host.close());

const get = (path: string, key = operator.key) => request('GET', `${OTA}${path}`, { key });

describe('GET marketplace/products', () => {
  it('lists only visible products, with integer ProductID and s_ ActivityID', async () => {
    const response = await get('/marketplace/products');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.json.data).toEqual([
      {
        ProductID: 501,
        ActivityID: 's_walk1',
        Name: 'Harbour Walking Tour',
        Description: 'Ninety minutes on foot.',
        DurationMinutes: 90,
        MaxParticipantsPerBooking: 10,
        PricePerParticipant: { Amount: 2000, Currency: 'EUR' },
        TimeZone: 'Europe/Lisbon',
      },
    ]);
  });

  it('filters by a case-insensitive partial name', async () => {
    expect((await get('/marketplace/products?name=HARBOUR%20walk')).json.data.map((p: any) => p.ProductID)).toEqual([501]);
    expect((await get('/marketplace/products?name=zzz')).json.data).toEqual([]);
  });

  it('rejects an absurdly long name filter with 422', async () => {
    expectProblem(await get(`/marketplace/products?name=${'a'.repeat(201)}`), 422, {
      instance: `${OTA}/marketplace/products`,
      detail: /'name'/,
    });
  });
});

describe('GET marketplace/resolve-product', () => {
  const path = `${OTA}/marketplace/resolve-product`;

  it('resolves by ID and by exact name, case-insensitively', async () => {
    expect((await get('/marketplace/resolve-product?ID=501')).json.data.ActivityID).toBe('s_walk1');
    expect((await get('/marketplace/resolve-product?Name=harbour%20walking%20tour')).json.data.ProductID).toBe(501);
  });

  it('answers 400 for neither or both parameters', async () => {
    expectProblem(await get('/marketplace/resolve-product'), 400, { instance: path, detail: /exactly one/ });
    expectProblem(await get('/marketplace/resolve-product?ID=501&Name=x'), 400, { instance: path, detail: /exactly one/ });
  });

  it('answers 422 for an ID that is not a positive integer', async () => {
    for (const id of ['abc', '0', '-3', '1.5']) {
      expectProblem(await get(`/marketplace/resolve-product?ID=${id}`), 422, { instance: path, detail: /'ID'/ });
    }
  });

  it('answers 404 for an unknown, a hidden, or a partial match', async () => {
    expectProblem(await get('/marketplace/resolve-product?ID=999'), 404, { instance: path });
    expectProblem(await get('/marketplace/resolve-product?ID=502'), 404, { instance: path });
    expectProblem(await get('/marketplace/resolve-product?Name=Harbour'), 404, { instance: path });
  });
});

describe('GET marketplace/availability/{ActivityID}/dates', () => {
  const path = `${OTA}/marketplace/availability/s_walk1/dates`;

  it('lists each date of the range that has room, with vacancies, capacity and status', async () => {
    const response = await get(`/marketplace/availability/s_walk1/dates?StartDate=${addDays(start, -3)}&EndDate=${addDays(start, 2)}`);
    expect(response.status).toBe(200);
    expect(response.json.data).toEqual(
      [0, 1, 2].map((offset) => ({
        Date: addDays(start, offset),
        Status: 'AVAILABLE',
        Vacancies: 20,
        Capacity: 20,
        AvailableTimeslots: 2,
      })),
    );
  });

  it('answers 422 naming the missing or malformed parameter', async () => {
    expectProblem(await get(`/marketplace/availability/s_walk1/dates?EndDate=${start}`), 422, {
      instance: path,
      detail: /'StartDate' is required/,
    });
    expectProblem(await get(`/marketplace/availability/s_walk1/dates?StartDate=${start}`), 422, {
      instance: path,
      detail: /'EndDate' is required/,
    });
    expectProblem(await get(`/marketplace/availability/s_walk1/dates?StartDate=2026-02-30&EndDate=2026-03-02`), 422, {
      instance: path,
      detail: /'StartDate'/,
    });
    expectProblem(await get(`/marketplace/availability/s_walk1/dates?StartDate=${start}&EndDate=tomorrow`), 422, {
      instance: path,
      detail: /'EndDate'/,
    });
    expectProblem(await get(`/marketplace/availability/s_walk1/dates?StartDate=0999-01-01&EndDate=0999-01-02`), 422, {
      instance: path,
      detail: /from 1970-01-01 to 9998-12-31/,
    });
    expectProblem(await get(`/marketplace/availability/s_walk1/dates?StartDate=9998-12-31&EndDate=9999-12-31`), 422, {
      instance: path,
      detail: /'EndDate'/,
    });
  });

  it('answers 422 when EndDate is before StartDate or the range is too long', async () => {
    expectProblem(await get(`/marketplace/availability/s_walk1/dates?StartDate=${start}&EndDate=${addDays(start, -1)}`), 422, {
      instance: path,
      detail: /before/,
    });
    const tooFar = addDays(start, MAX_DATE_RANGE_DAYS);
    expectProblem(await get(`/marketplace/availability/s_walk1/dates?StartDate=${start}&EndDate=${tooFar}`), 422, {
      instance: path,
      detail: /at most 92/,
    });
    expect((await get(`/marketplace/availability/s_walk1/dates?StartDate=${start}&EndDate=${addDays(tooFar, -1)}`)).status).toBe(200);
  });

  it('answers 400 for a malformed ActivityID and 404 for an unknown or hidden one', async () => {
    for (const bad of ['walk1', 's_', 's_bad-id', `s_${'a'.repeat(65)}`]) {
      const response = await get(`/marketplace/availability/${bad}/dates?StartDate=${start}&EndDate=${start}`);
      expectProblem(response, 400, { instance: `${OTA}/marketplace/availability/${bad}/dates`, detail: /'ActivityID'/ });
    }
    expectProblem(await get(`/marketplace/availability/s_nothere/dates?StartDate=${start}&EndDate=${start}`), 404, {
      instance: `${OTA}/marketplace/availability/s_nothere/dates`,
    });
    expectProblem(await get(`/marketplace/availability/s_hidden1/dates?StartDate=${start}&EndDate=${start}`), 404, {
      instance: `${OTA}/marketplace/availability/s_hidden1/dates`,
    });
  });
});

describe('GET marketplace/availability/{ActivityID}/timeslots', () => {
  it("lists the date's timeslots with local time and offset", async () => {
    const response = await get(`/marketplace/availability/s_walk1/timeslots?Date=${start}`);
    expect(response.status).toBe(200);
    expect(response.json.data).toEqual([
      expect.objectContaining({ Date: start, Time: '09:00', Status: 'AVAILABLE', Vacancies: 10, Capacity: 10 }),
      expect.objectContaining({ Date: start, Time: '14:00', Status: 'AVAILABLE', Vacancies: 10, Capacity: 10 }),
    ]);
    expect(response.json.data[0].StartsAt).toMatch(new RegExp(`^${start}T09:00:00\\+0[01]:00$`));
  });

  it('is empty for a date without timeslots, and 422 without Date', async () => {
    expect((await get(`/marketplace/availability/s_walk1/timeslots?Date=${addDays(start, 30)}`)).json.data).toEqual([]);
    expectProblem(await get('/marketplace/availability/s_walk1/timeslots'), 422, {
      instance: `${OTA}/marketplace/availability/s_walk1/timeslots`,
      detail: /'Date' is required/,
    });
  });
});

describe('GET questions', () => {
  const questions = testCatalog().Products[0].Questions;

  it('marketplace form wraps the questions with their activity', async () => {
    const response = await get('/marketplace/questions/s_walk1');
    expect(response.status).toBe(200);
    expect(response.json.data).toEqual({
      Activity: { ActivityID: 's_walk1', ProductID: 501, Name: 'Harbour Walking Tour' },
      Questions: questions,
    });
  });

  it('core form is the bare list', async () => {
    expect((await get('/core/questions/s_walk1')).json.data).toEqual(questions);
  });

  it('answers 400 for a malformed and 404 for an unknown ActivityID', async () => {
    expectProblem(await get('/core/questions/nope'), 400, { instance: `${OTA}/core/questions/nope`, detail: /'ActivityID'/ });
    expectProblem(await get('/marketplace/questions/s_unknown'), 404, { instance: `${OTA}/marketplace/questions/s_unknown` });
  });
});

describe('routing', () => {
  it("answers an unknown path or method with a 404 problem, in the marketplace's words only", async () => {
    expectProblem(await get('/marketplace/nothing'), 404, { instance: `${OTA}/marketplace/nothing` });
    expectProblem(await request('DELETE', `${OTA}/marketplace/products`, { key: operator.key }), 404, {
      instance: `${OTA}/marketplace/products`,
    });
  });

  it('answers a path that is not valid percent-encoding, and oversized headers, with problems', async () => {
    expectProblem(await get('/core/questions/s_%ZZ'), 400, {
      instance: `${OTA}/core/questions/s_%ZZ`,
      detail: /percent-encoding/,
      octo: true,
    });
    const oversized = await request('GET', `${OTA}/marketplace/products?name=${'a'.repeat(20_000)}`, { key: operator.key });
    expect(oversized.status).toBe(431);
    expect(oversized.headers.get('content-type')).toBe('application/problem+json');
    expect(oversized.json).toMatchObject({ status: 431, title: 'Request Header Fields Too Large' });
  });
});
