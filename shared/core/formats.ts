import { isSupportedDay } from './calendar';

/**
 * The string formats the request schemas use that are code rather than a
 * pattern. The generated validators call them (scripts/validators.ts hands
 * ajv the same object when it generates them), so a format is defined once.
 */
export const formats = {
  'supported-day': { type: 'string', validate: isSupportedDay },
} as const;
