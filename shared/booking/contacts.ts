import { E164_PATTERN, EMAIL_MAX_LENGTH, NAME_MAX_LENGTH } from './constants';
import type { Contact, Customer } from './schemas';

/**
 * A reservation's contact, as the partner gave it (every field optional),
 * and the booking's Customer derived from it: when the contact names a first
 * and last name and a valid email, the operator's lists show the name.
 */

const isCustomer = (value: unknown): value is Customer => {
  const customer = value as Customer;
  return (
    typeof customer.FirstName === 'string' &&
    customer.FirstName.trim() !== '' &&
    customer.FirstName.length <= NAME_MAX_LENGTH &&
    typeof customer.LastName === 'string' &&
    customer.LastName.trim() !== '' &&
    customer.LastName.length <= NAME_MAX_LENGTH &&
    typeof customer.Email === 'string' &&
    /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(customer.Email) &&
    customer.Email.length <= EMAIL_MAX_LENGTH
  );
};

/** The operator's lists show a customer: the contact's name and email, when it gives all three. */
export function customerOf(contact: Contact | undefined): Customer | undefined {
  const candidate = { FirstName: contact?.FirstName?.trim(), LastName: contact?.LastName?.trim(), Email: contact?.EmailAddress?.trim() };
  if (!isCustomer(candidate)) return undefined;
  const phone = contact?.PhoneNumber?.replace(/[\s()-]/g, '');
  return { ...candidate, ...(phone && new RegExp(E164_PATTERN).test(phone) ? { Phone: phone } : {}) };
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
