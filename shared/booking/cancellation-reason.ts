/**
 * The rule of a cancellation's reason, apart from the other booking schemas:
 * the cancellation code checks reasons itself (an operator's, an OCTo
 * reseller's) and is loaded by every booking function, which would otherwise
 * load every booking schema with it.
 */
export const cancellationReasonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 500,
  pattern: '^(?=.*\\S)[^\\u0000-\\u001F\\u007F]+$',
  errorMessage: 'must be 1 to 500 characters, not all blank, without control characters',
} as const;
