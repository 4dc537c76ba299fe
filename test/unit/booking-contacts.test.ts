import { customerOf, mergeContact } from '../../shared/booking/contacts';
import { customerSchema } from '../../shared/booking/schemas';
import { createAjv } from '../../scripts/validators';

/**
 * A reservation's contact, merged field by field, and the Customer derived
 * from it, decided with no I/O (shared/booking/contacts.ts): held to the
 * very rule the marketplace's customerSchema validates a Customer with.
 */

const ana = { FirstName: 'Ana', LastName: 'Silva', EmailAddress: 'ana@example.com' };

describe('merging a contact sent over the one held', () => {
  test('a field sent replaces, null clears, a field not sent stays', () => {
    expect(mergeContact({ ...ana, PhoneNumber: '+351 912 345 678' }, { FirstName: 'Inês', PhoneNumber: null, Country: 'PT' })).toEqual({
      FirstName: 'Inês',
      LastName: 'Silva',
      EmailAddress: 'ana@example.com',
      Country: 'PT',
      FullName: 'Inês Silva',
    });
  });

  test('a full name is made of the first and last when none is given, and kept when one is', () => {
    expect(mergeContact(undefined, { FirstName: 'Ana', LastName: 'Silva' })?.FullName).toBe('Ana Silva');
    expect(mergeContact({ FullName: 'Dr Ana Silva' }, { FirstName: 'Ana', LastName: 'Silva' })?.FullName).toBe('Dr Ana Silva');
  });

  test('nothing sent keeps the contact; everything cleared leaves none', () => {
    expect(mergeContact(ana, undefined)).toBe(ana);
    expect(mergeContact({ Country: 'PT' }, { Country: null })).toBeUndefined();
  });
});

describe('the customer of a contact', () => {
  test('is its names and email, trimmed, and its phone when it is E.164 once spaces and brackets are gone', () => {
    expect(
      customerOf({ FirstName: ' Ana ', LastName: 'Silva', EmailAddress: ' ana@example.com', PhoneNumber: '+351 (91) 234-5678' }),
    ).toEqual({
      FirstName: 'Ana',
      LastName: 'Silva',
      Email: 'ana@example.com',
      Phone: '+351912345678',
    });
    expect(customerOf({ ...ana, PhoneNumber: '0912 345 678' })).toEqual({ FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com' });
  });

  test.each([
    ['no contact', undefined],
    ['no last name', { FirstName: 'Ana', EmailAddress: 'ana@example.com' }],
    ['a blank name', { ...ana, FirstName: '   ' }],
    ['a control character in a name', { ...ana, LastName: 'Sil\u0007va' }],
    ['a line break in a name', { ...ana, FirstName: 'Ana\nMaria' }],
    ['a name over 100 characters', { ...ana, LastName: 'x'.repeat(101) }],
    ['an address that is not an email', { ...ana, EmailAddress: 'ana@example' }],
    ['an email with a space', { ...ana, EmailAddress: 'ana silva@example.com' }],
  ])('is none with %s', (_, contact) => {
    expect(customerOf(contact)).toBeUndefined();
  });

  test('counts a name in characters, as the schema does: 100 emoji are a name', () => {
    expect(customerOf({ ...ana, FirstName: '🙂'.repeat(100) })?.FirstName).toBe('🙂'.repeat(100));
  });

  test("holds a name and an email to the marketplace's customerSchema, value for value", () => {
    const validate = createAjv().compile(customerSchema);
    const names = ['Ana', 'Ana Maria', 'Ana\tMaria', 'x'.repeat(100), 'x'.repeat(101), '🙂'.repeat(100), 'A\u007F', 'A\u001F', ' a', ''];
    const emails = [
      'ana@example.com',
      'Ana.Silva+x@sub.example.pt',
      'ana@example',
      'ana@@example.com',
      'a b@example.com',
      `${'a'.repeat(245)}@example.com`,
    ];
    for (const name of names) {
      for (const email of emails) {
        // Trimmed values: the contact's are trimmed before they are held to the rule.
        const sent = { FirstName: name.trim() || name, LastName: 'Silva', Email: email };
        const schemaSays = validate(sent);
        const customerSays = customerOf({ FirstName: sent.FirstName, LastName: sent.LastName, EmailAddress: sent.Email }) !== undefined;
        expect({ sent, customerSays }).toEqual({ sent, customerSays: schemaSays });
      }
    }
  });
});

describe("one rule for a customer's name and email, whichever API sends them", () => {
  test('with other lengths in the constants, the OCTo contact, the Customer and its messages all follow', async () => {
    const lengths = { NAME_MAX_LENGTH: 40, EMAIL_MAX_LENGTH: 80 };
    await jest.isolateModulesAsync(async () => {
      jest.doMock('../../shared/booking/constants', () => ({ ...jest.requireActual('../../shared/booking/constants'), ...lengths }));
      const { contactBody } = await import('../../shared/octo/schemas/requests');
      const { customerSchema: customer } = await import('../../shared/booking/schemas');
      const { customerOf: customerOfContact } = await import('../../shared/booking/contacts');
      const { firstName, lastName, emailAddress } = contactBody.properties;
      const { FirstName, Email } = customer.properties;
      expect({
        octo: [firstName.maxLength, lastName.maxLength, emailAddress.maxLength],
        customer: [FirstName.maxLength, Email.maxLength],
        message: FirstName.errorMessage,
        derived: [
          customerOfContact({ ...ana, FirstName: 'x'.repeat(40) }) !== undefined,
          customerOfContact({ ...ana, FirstName: 'x'.repeat(41) }),
        ],
      }).toEqual({
        octo: [40, 40, 80],
        customer: [40, 80],
        message: 'must be 1 to 40 characters, not all blank, without control characters',
        derived: [true, undefined],
      });
    });
  });
});
