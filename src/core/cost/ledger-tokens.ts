/**
 * The savings ledger's token model (pure): how many provider tokens the body that did not go
 * had, and how many of them the provider's cache would have held, anchored on what the provider
 * counted for the body that went.
 *
 * Between two consecutive requests of an append-only client both bodies grow by the same new
 * messages, so the tokens Sluice's body lacks (R: what its steps removed, in provider tokens)
 * stay the same until the next step. The ledger therefore carries R from call to call:
 * - a call whose client body went: its count is exact; R is 0 there (compact mode, nothing
 *   removed) or is carried and moved by the step's estimate (measure mode);
 * - a compacted call without a new removal: client body = Sluice's reported count + R;
 * - a compacted call whose step removed more: the client body is the previous client body plus
 *   what was appended, the appended tokens estimated (our estimate × the calibration of appended
 *   messages, learnt from every pair of consecutive calls whose growth the provider counted), and
 *   R is re-derived from it: the only estimated tokens are the new messages of a step call.
 * When the previous request is not a prefix of this one (the client edited its history, or the
 * session's first call went compacted) the removed part is estimated whole (× calibration).
 * Cached part: the previous body of the same world when it is a whole prefix of this one, else
 * the shared share of this body in proportion to the estimates.
 */
import { toProviderTokens } from "./counterfactual-input";

/** What the ledger remembers from the previous call (provider tokens; null: unknown). */
export interface TokenState {
  /** The previous client body, provider tokens. */
  original: number | null;
  /** Our estimate of the previous client body, tokens. */
  original_est: number;
  /** Sluice's previous body (sent, or measuring, would-send), provider tokens. */
  sent: number | null;
  /** Provider tokens Sluice's body lacks of the client's (R). */
  removed: number;
  /** Our estimate of the same (client estimate − Sluice's body estimate). */
  removed_est: number;
  /** Our estimate of Sluice's previous body. */
  sent_est: number;
  /** Growth between consecutive calls of one body, as the provider counted it and as we estimated it (sums): the calibration of appended messages. */
  appended: number;
  appended_est: number;
}

/** The initial state of a session. */
export const EMPTY_TOKEN_STATE: TokenState = { original: null, original_est: 0, sent: null, removed: 0, removed_est: 0, sent_est: 0, appended: 0, appended_est: 0 };

/** One priced call. Estimates are ours (tokens); `reported` is the provider's count of the body that went. */
export interface TokenCall {
  /** Which body went: the client's (`original`: nothing differed; `measured`: Sluice's would have differed) or Sluice's (`edited`). */
  went: "original" | "measured" | "edited";
  reported: number;
  /** Our estimates of the client's body and of Sluice's (sent or would-send). */
  original_est: number;
  sent_est: number;
  /** Our estimates of the prefixes each shares with its previous body. */
  original_shared_est: number;
  sent_shared_est: number;
  /** The previous client body is a whole prefix of this one (members equal, every message shared). */
  whole_prefix: boolean;
  /** Whether a step at this call removed more (Sluice's shared prefix ends at its first edit). */
  stepped: boolean;
  /** Provider tokens per estimated token for client bodies (null: 1). */
  calibration: number | null;
}

/** Both bodies in provider tokens, with their cached-prefix candidates. */
export interface TokenFigures {
  original: number;
  original_shared: number;
  sent: number;
  sent_shared: number;
  next: TokenState;
}

/** Relative change of the removed estimate under which a call without a step counts as removing the same (a re-applied plan estimates alike). */
export const SAME_REMOVALS = 0.01;

const share = (total: number, part_est: number, total_est: number) => (total_est > 0 ? (total * Math.min(part_est, total_est)) / total_est : 0);

/** The figures of call `c` after `s` (module header). */
export function ledgerTokens(s: TokenState, c: TokenCall): TokenFigures {
  const removedEst = Math.max(0, c.original_est - c.sent_est);
  const chained = c.whole_prefix && s.original !== null && s.sent !== null;
  const sameRemovals = !c.stepped && Math.abs(removedEst - s.removed_est) <= SAME_REMOVALS * Math.max(1, s.removed_est);
  let original: number, sent: number;
  let grown: [number, number] | null = null; // [provider tokens, estimate] appended since the previous call, when counted
  if (c.went === "edited") {
    sent = c.reported;
    if (chained && sameRemovals) {
      original = sent + s.removed;
      grown = [sent - s.sent!, c.sent_est - s.sent_est];
    } else if (chained) {
      const cal = s.appended_est > 0 ? s.appended / s.appended_est : c.calibration;
      original = s.original! + toProviderTokens(Math.max(0, c.original_est - s.original_est), cal);
    } else original = sent + toProviderTokens(removedEst, c.calibration);
  } else {
    original = c.reported;
    if (chained) grown = [original - s.original!, c.original_est - s.original_est];
    const removed = c.went === "original" ? 0 : chained ? s.removed + toProviderTokens(removedEst - s.removed_est, c.calibration) : toProviderTokens(removedEst, c.calibration);
    sent = Math.max(0, original - removed);
  }
  const original_shared = chained ? Math.min(s.original!, original) : share(original, c.original_shared_est, c.original_est);
  const sent_shared = chained && !c.stepped ? Math.min(s.sent!, sent) : share(sent, c.sent_shared_est, c.sent_est);
  const learn = grown !== null && grown[0] > 0 && grown[1] > 0;
  return {
    original, original_shared, sent, sent_shared,
    next: {
      original, original_est: c.original_est, sent, removed: Math.max(0, original - sent), removed_est: removedEst, sent_est: c.sent_est,
      appended: s.appended + (learn ? grown![0] : 0), appended_est: s.appended_est + (learn ? grown![1] : 0),
    },
  };
}
