/**
 * `avg` of the cost model's distortion term ④ (pure): the session's average request size in
 * input tokens, as the seed defines it — not the tokens a turn added.
 *
 * Source, in order: the provider's own counts once the session has any (input + cache read +
 * cache write tokens of every answer, over the answers); before the first answer, the session's
 * own estimates of its requests as the clients sent them, this one included.
 */

/** What a session measured of its request sizes, tokens. */
export interface RequestSizes {
  /** Σ provider-reported input tokens (input + cache read + cache write) over `reports` answers. */
  reported_tokens: number;
  /** Answers whose usage the session received. */
  reports: number;
  /** Σ estimated input tokens of the session's earlier requests as the client sent them. */
  estimated_tokens: number;
  /** Earlier requests counted in `estimated_tokens`. */
  estimated_requests: number;
}

/** Average input tokens per request of the session, `current_est` being this request's estimate. */
export function averageRequestTokens(sizes: RequestSizes, current_est: number): number {
  if (sizes.reports > 0) return sizes.reported_tokens / sizes.reports;
  return (sizes.estimated_tokens + current_est) / (sizes.estimated_requests + 1);
}
