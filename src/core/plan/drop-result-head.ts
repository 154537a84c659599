/**
 * The one size of what `drop_result` keeps (pure constants, shared by every adapter and the cost
 * model): an exact head of the result's text, since providers reject an emptied result. Design
 * choice, not a provider number.
 */
import { estimateTokensFromBytes } from "../tokens/estimate";

/**
 * Bytes of result text `drop_result` keeps (raw JSON bytes of the literal, before the cut goes
 * back to a character boundary). 64 bytes hold a first line — an error message, a path, a status
 * — which tells the model what the call returned without keeping its body.
 */
export const DROP_RESULT_HEAD_BYTES = 64;

/** Estimated tokens the kept head costs (src/core/tokens/estimate.ts over DROP_RESULT_HEAD_BYTES): for the cost model only. */
export const DROP_RESULT_KEPT_TOKENS = estimateTokensFromBytes(DROP_RESULT_HEAD_BYTES);
