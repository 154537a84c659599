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

/**
 * Answers carrying provider usage, by scenario `usage:<api>:<json|sse>` (api: anthropic | chat |
 * responses). Every one reports the same call: 1,050 prompt tokens of which 900 cache reads
 * (Anthropic: 120 uncached + 30 cache writes + 900 reads), 7 output tokens. Shapes: Anthropic
 * Messages (`usage`; streaming message_start.message.usage + message_delta.usage), OpenAI Chat
 * (`usage.prompt_tokens_details.cached_tokens`; streaming final chunk with `choices: []`), OpenAI
 * Responses (`usage.input_tokens_details.cached_tokens`; streaming `response.completed`).
 */
export const USAGE_ANSWERS: Record<string, { contentType: string; body: string }> = {
  "anthropic:json": {
    contentType: "application/json",
    body: '{"id":"msg_u1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","usage":{"input_tokens":120,"cache_creation_input_tokens":30,"cache_read_input_tokens":900,"output_tokens":7}}',
  },
  "anthropic:sse": {
    contentType: "text/event-stream; charset=utf-8",
    body:
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_u1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"usage":{"input_tokens":120,"cache_creation_input_tokens":30,"cache_read_input_tokens":900,"output_tokens":1}}}\n\n' +
      'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n' +
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ok"}}\n\n' +
      'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n' +
      'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":7}}\n\n' +
      'event: message_stop\ndata: {"type":"message_stop"}\n\n',
  },
  // A cold call: nothing read from the cache, the whole prompt written (the cache-breaker diagnostics' miss).
  "anthropic-cold:json": {
    contentType: "application/json",
    body: '{"id":"msg_c1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","usage":{"input_tokens":20,"cache_creation_input_tokens":1030,"cache_read_input_tokens":0,"output_tokens":7}}',
  },
  // Native mechanism: the provider reports the clearing it applied, and an input transformation a gateway returns unchanged.
  "anthropic-native:json": {
    contentType: "application/json",
    body: '{"id":"msg_n1","type":"message","role":"assistant","model":"claude-opus-5-5","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","usage":{"input_tokens":120,"cache_creation_input_tokens":30,"cache_read_input_tokens":900,"output_tokens":7},"context_management":{"applied_edits":[{"type":"clear_thinking_20251015","cleared_thinking_turns":0,"cleared_input_tokens":0},{"type":"clear_tool_uses_20250919","cleared_tool_uses":1,"cleared_input_tokens":6000}]},"input_transformations":[{"type":"thinking_dropped","message_index":1,"block_index":0}]}',
  },
  "anthropic-native:sse": {
    contentType: "text/event-stream; charset=utf-8",
    body:
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_n1","type":"message","role":"assistant","model":"claude-opus-5-5","content":[],"stop_reason":null,"usage":{"input_tokens":120,"cache_creation_input_tokens":30,"cache_read_input_tokens":900,"output_tokens":1}}}\n\n' +
      'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":7},"context_management":{"applied_edits":[{"type":"clear_tool_uses_20250919","cleared_tool_uses":2,"cleared_input_tokens":12000}]}}\n\n' +
      'event: message_stop\ndata: {"type":"message_stop"}\n\n',
  },
  // Native compaction (Sluice's compact_20260112 edit fired): the answer starts with the compaction block, usage.iterations bills the summary.
  "anthropic-compaction:json": {
    contentType: "application/json",
    body: '{"id":"msg_c1","type":"message","role":"assistant","model":"claude-opus-5-5","content":[{"type":"compaction","content":"Summary of 30 messages.","encrypted_content":null},{"type":"text","text":"ok"}],"stop_reason":"end_turn","usage":{"input_tokens":3200,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":7,"iterations":[{"type":"compaction","input_tokens":81000,"cache_read_input_tokens":0,"cache_creation_input_tokens":0,"output_tokens":2900,"cache_creation":null},{"type":"message","input_tokens":3200,"cache_read_input_tokens":0,"cache_creation_input_tokens":0,"output_tokens":7}]}}',
  },
  // The same step on a thinking-bound model with thinking on: [compaction, thinking, text, tool_use].
  "anthropic-compaction-thinking:json": {
    contentType: "application/json",
    body: '{"id":"msg_c2","type":"message","role":"assistant","model":"claude-opus-5-5","content":[{"type":"compaction","content":"Summary of 30 messages.","encrypted_content":null},{"type":"thinking","thinking":"","signature":"sig-after"},{"type":"text","text":"Listing."},{"type":"tool_use","id":"toolu_after","name":"shell","input":{"cmd":"ls"}}],"stop_reason":"tool_use","usage":{"input_tokens":3200,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":7,"iterations":[{"type":"compaction","input_tokens":81000,"cache_read_input_tokens":0,"cache_creation_input_tokens":0,"output_tokens":2900,"cache_creation":null},{"type":"message","input_tokens":3200,"cache_read_input_tokens":0,"cache_creation_input_tokens":0,"output_tokens":7}]}}',
  },
  "chat:json": {
    contentType: "application/json",
    body: '{"id":"chatcmpl-u1","object":"chat.completion","model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1050,"completion_tokens":7,"total_tokens":1057,"prompt_tokens_details":{"cached_tokens":900}}}',
  },
  "chat:sse": {
    contentType: "text/event-stream",
    body:
      'data: {"id":"chatcmpl-u1","object":"chat.completion.chunk","model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","content":"ok"},"finish_reason":null}],"usage":null}\n\n' +
      'data: {"id":"chatcmpl-u1","object":"chat.completion.chunk","model":"gpt-4o","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":null}\n\n' +
      'data: {"id":"chatcmpl-u1","object":"chat.completion.chunk","model":"gpt-4o","choices":[],"usage":{"prompt_tokens":1050,"completion_tokens":7,"total_tokens":1057,"prompt_tokens_details":{"cached_tokens":900}}}\n\n' +
      "data: [DONE]\n\n",
  },
  "responses:json": {
    contentType: "application/json",
    body: '{"id":"resp_u1","object":"response","status":"completed","model":"gpt-4o","output":[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"ok"}]}],"usage":{"input_tokens":1050,"input_tokens_details":{"cached_tokens":900},"output_tokens":7,"total_tokens":1057}}',
  },
  "responses:sse": {
    contentType: "text/event-stream",
    body:
      'event: response.created\ndata: {"type":"response.created","response":{"id":"resp_u1","status":"in_progress","usage":null}}\n\n' +
      'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":"ok"}\n\n' +
      'event: response.completed\ndata: {"type":"response.completed","response":{"id":"resp_u1","status":"completed","usage":{"input_tokens":1050,"input_tokens_details":{"cached_tokens":900},"output_tokens":7,"total_tokens":1057}}}\n\n',
  },
};

/** `sse-gated-usage`: like `sse-gated`, but the Anthropic events carry usage (120 / 30 / 900 in, 7 out). */
export const SSE_GATED_USAGE_EVENTS = [
  'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":120,"cache_creation_input_tokens":30,"cache_read_input_tokens":900,"output_tokens":1}}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"un, deux"}}\n\n',
  'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":7}}\n\n',
  'event: message_stop\ndata: {"type":"message_stop"}\n\n',
];
