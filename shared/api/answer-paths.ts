/**
 * The paths a function names in its answers (a created booking's Location),
 * apart from the route table, which the table's rows take them from: a
 * function that builds one does not load every route with it.
 */
export const answerPaths = {
  'get-booking': '/api/v2/ota/marketplace/booking/{BookingReference}',
} as const;

/** The path of route `id` with its `{Name}` segments filled in, each encoded. */
export function answerPath(id: keyof typeof answerPaths, parameters: Record<string, string>): string {
  return answerPaths[id].replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(parameters[name]));
}
