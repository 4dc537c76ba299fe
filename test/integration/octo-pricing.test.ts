import { availabilityId, OCTO, octoClient, reservation, octoWorld } from '../support/octo';

/**
 * Pricing (octo/pricing) through the local host: a booking's price is the
 * exact sum of its unit items, in the product's currency, and prices appear
 * only when the capability is asked for.
 */

const { world, day } = octoWorld();

describe('pricing (octo/pricing)', () => {
  const sum = (booking: any) => booking.unitItems.reduce((total: number, item: any) => total + item.pricing.retail, 0);

  test('a booking costs exactly the sum of its unit items, in the product currency, after reserving, confirming with other units and moving', async () => {
    const held = (await world.octo('POST', '/bookings', reservation(day(4), '10:00', ['adult', 'child', 'infant']))).json;
    expect(held.pricing).toEqual({ original: 6500, retail: 6500, net: null, currency: 'EUR', currencyPrecision: 2, includedTaxes: [] });
    expect(sum(held)).toBe(6500);
    const confirmedWithUnits = (
      await world.octo('POST', `/bookings/${held.uuid}/confirm`, {
        unitItems: [{ unitId: 'adult' }, { unitId: 'adult' }, { unitId: 'child' }],
      })
    ).json;
    expect(confirmedWithUnits.unitItems.map((item: any) => [item.unitId, item.pricing.retail])).toEqual([
      ['adult', 4000],
      ['adult', 4000],
      ['child', 2500],
    ]);
    expect(confirmedWithUnits.pricing.retail).toBe(10500);
    expect(sum(confirmedWithUnits)).toBe(confirmedWithUnits.pricing.retail);
    const moved = (
      await world.octo('PATCH', `/bookings/${held.uuid}`, {
        productId: 's_museum1',
        availabilityId: availabilityId(day(4), '00:00'),
        unitItems: [{ unitId: 'senior' }, { unitId: 'adult' }],
      })
    ).json;
    expect(moved).toMatchObject({ productId: 's_museum1', pricing: { retail: 2500, currency: 'EUR' } });
    expect(sum(moved)).toBe(2500);
  });

  test('units, options, availabilities and calendar days carry their prices; without the capability no price appears', async () => {
    const product = (await world.octo('GET', '/products/s_boat1')).json;
    expect(product).toMatchObject({ defaultCurrency: 'EUR', availableCurrencies: ['EUR'], pricingPer: 'UNIT' });
    expect(product.options[0].units.map((unit: any) => [unit.id, unit.pricingFrom[0].retail])).toEqual([
      ['adult', 4000],
      ['child', 2500],
      ['infant', 0],
    ]);
    expect(product.options[0].pricingFrom[0].retail).toBe(0);
    const [slot] = (await world.octo('POST', '/availability', { productId: 's_boat1', optionId: 'DEFAULT', localDate: day(5) })).json;
    expect(slot.unitPricing.map((price: any) => price.unitId)).toEqual(['adult', 'child', 'infant']);
    const [calendarDay] = (
      await world.octo('POST', '/availability/calendar', {
        productId: 's_boat1',
        optionId: 'DEFAULT',
        localDateStart: day(5),
        localDateEnd: day(5),
      })
    ).json;
    expect(calendarDay.unitPricingFrom).toHaveLength(3);
    const plain = octoClient(world.request, world.operator.key, { pricing: false });
    const noPricing = await plain('GET', '/products/s_boat1');
    expect(noPricing.headers.get('octo-capabilities')).toBe('');
    expect(JSON.stringify(noPricing.json)).not.toMatch(/pricing|Currency/);
    const booking = (await plain('POST', '/bookings', reservation(day(5), '15:00', ['adult']))).json;
    expect(booking.pricing).toBeUndefined();
    expect(booking.unitItems[0].pricing).toBeUndefined();
  });

  test('capabilities the service lacks are ignored', async () => {
    const response = await world.request('GET', `${OCTO}/products/s_boat1`, {
      key: world.operator.key,
      headers: { 'Octo-Capabilities': 'octo/content, octo/pricing,octo/pickups' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('octo-capabilities')).toBe('octo/pricing');
    expect(response.json.pricingPer).toBe('UNIT');
  });
});
