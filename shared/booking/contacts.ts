import { E164_PATTERN, EMAIL_MAX_LENGTH, EMAIL_PATTERN, NAME_MAX_LENGTH, VISIBLE_TEXT_PATTERN } from './constants';
import type { Contact, Customer } from './schemas';

/**
 * A reservation's contact, as the partner gave it (every field optional),
 * and the booking's Customer derived from it. A Customer is held to one rule
 * whichever API made the booking: the constants the marketplace's
 * customerSchema is written on (a name of visible text without control
 * characters, one email pattern, their lengths, E.164 phones), so nothing
 * the marketplace refuses reaches the operator's lists through OCTo.
 */

/** Compiled on first use, so that a function that derives no customer does not load them. */
let compiled: { name: RegExp; email: RegExp; phone: RegExp } | undefined;
const rules = () =>
  (compiled ??= {
    name: new RegExp(VISIBLE_TEXT_PATTERN, 'u'),
    email: new RegExp(EMAIL_PATTERN, 'u'),
    phone: new RegExp(E164_PATTERN, 'u'),
  });

/** Within `rule` and `maxLength` characters (code points, as JSON Schema counts them). */
const follows = (text: string | undefined, rule: RegExp, maxLength: number): text is string =>
  text !== undefined && rule.test(text) && [...text].length <= maxLength;

/** The operator's lists show a customer: the contact's name and email, when they make one; its phone when it is E.164. */
export function customerOf(contact: Contact | undefined): Customer | undefined {
  const [FirstName, LastName, Email] = [contact?.FirstName?.trim(), contact?.LastName?.trim(), contact?.EmailAddress?.trim()];
  const { name, email, phone: e164 } = rules();
  if (!follows(FirstName, name, NAME_MAX_LENGTH) || !follows(LastName, name, NAME_MAX_LENGTH)) return undefined;
  if (!follows(Email, email, EMAIL_MAX_LENGTH)) return undefined;
  const phone = contact?.PhoneNumber?.replace(/[\s()-]/g, '');
  return { FirstName, LastName, Email, ...(phone && e164.test(phone) ? { Phone: phone } : {}) };
}

/** A contact sent over one already held: each field sent replaces it, `null` clears it, a field not sent stays. */
export function mergeContact(current: Contact | undefined, sent: Record<string, unknown> | undefined): Contact | undefined {
  if (!sent) return current;
  const merged: Record<string, unknown> = { ...current };
  for (const [name, value] of Object.entries(sent)) {
    if (value === null) delete merged[name];
    else if (value !== undefined) merged[name] = value;
  }
  if (merged.FullName === undefined && typeof merged.FirstName === 'string' && typeof merged.LastName === 'string') {
    merged.FullName = `${merged.FirstName} ${merged.LastName}`;
  }
  return Object.keys(merged).length ? (merged as Contact) : undefined;
}
