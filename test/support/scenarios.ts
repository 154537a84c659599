/**
 * Fixed bytes the upstream stand-in (upstream-server.ts) sends, shared with the Workers tests
 * that assert the client got exactly these bytes. No Node imports: loaded in workerd too.
 */

/** Body of `status:NNN` answers. */
export const STATUS_BODY = (status: number): string =>
  `{"type":"error","error":{"type":"upstream_test_error","message":"status ${status} from stand-in \\u00e9"}}`;
/** Bytes sent before the socket is destroyed in `reset-mid-body`. */
export const PARTIAL_BODY = '{"partial":';
/** Plain JSON of the `encoded:E` answers (before encoding). */
export const ENCODED_PLAIN = '{"ok":true,"compressed":"café café café café"}';
/** The events of `sse-gated`, in order. */
export const SSE_GATED_EVENTS = [
  'event: message_start\ndata: {"type":"message_start"}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"type":"text_delta","text":"un, deux"}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"type":"text_delta","text":", trois, \u00e9"}}\n\n',
  'event: message_stop\ndata: {"type":"message_stop"}\n\n',
];
/** The whole body of `sse-split` and `sse-bytewise`. */
export const SSE_SPLIT_TEXT =
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"un, deux, trois, \u00e9"}}\n\n' +
  'event: message_stop\ndata: {"type":"message_stop"}\n\n';
/** A gated stream releases itself after this long, so a buffering gateway fails an assertion instead of hanging. */
export const RELEASE_SAFETY_MS = 3_000;
