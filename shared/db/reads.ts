/** What a read asks for and what reads cost: the batch reads (batch.ts) and the paged Queries (query-pages.ts) alike. */

/** The attributes a read returns, when not the whole item. */
export interface Projection {
  expression: string;
  names?: Record<string, string>;
}

/** What reads cost DynamoDB, added up by the reads that are given one; with `maxItems`, a budget Queries stop at. */
export interface QueryCost {
  queries: number;
  itemsRead: number;
  capacityUnits: number;
  maxItems?: number;
}
