import { describe, expect, it } from "vitest";
import { handleRequest } from "../../tools/emulator/handle-request";
import { formatSse, parseSse } from "../../tools/emulator/shared/sse";
import { createState } from "../../tools/emulator/state";

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64");
function call(path: string, body: object, reply: unknown, stream: boolean) {
  const headers = { "x-api-key": "k", authorization: "Bearer k", "x-emulator-reply": b64(reply), "x-emulator-time": "1000" };
  return handleRequest(createState(), { method: "POST", path, headers, body: JSON.stringify({ ...body, stream }) }, 0);
}
const data = (r: { body: string }) => parseSse(r.body).map((e) => (e.data === "[DONE]" ? e.data : JSON.parse(e.data)));

describe("SSE framing", () => {
  it("round-trips named and unnamed events, CRLF and multi-line data", () => {
    const events = [{ event: "a", data: '{"x":1}' }, { data: "[DONE]" }];
    expect(parseSse(formatSse(events))).toEqual(events);
    expect(parseSse(": comment\r\nevent: b\r\ndata: 1\r\ndata: 2\r\n\r\n")).toEqual([{ event: "b", data: "1\n2" }]);
  });
});

describe("Anthropic stream", () => {
  const text = "The config sets port 9000, which overrides the default of 8080 in main.ts.";
  const reply = {
    role: "assistant",
    content: [
      { type: "thinking", thinking: "Check the config.", signature: "sig1" },
      { type: "text", text },
      { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "service.toml", lines: [1, 2] } },
    ],
  };
  const body = { model: "claude-sonnet-4-5", max_tokens: 100, messages: [{ role: "user", content: "why?" }] };

  it("emits the real event sequence and its deltas rebuild the JSON answer", () => {
    const json = JSON.parse(call("/v1/messages", body, reply, false).body);
    const r = call("/v1/messages", body, reply, true);
    expect(r.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    const events = parseSse(r.body);
    expect(events.every((e) => JSON.parse(e.data).type === e.event)).toBe(true);
    const names = events.map((e) => e.event).filter((n) => n !== "content_block_delta");
    expect(names).toEqual(["message_start", "ping", ...Array(3).fill(["content_block_start", "content_block_stop"]).flat(), "message_delta", "message_stop"]);
    const d = data(r);
    const blocks: any[] = [];
    for (const e of d) {
      if (e.type === "content_block_start") blocks[e.index] = { ...e.content_block, partial: "" };
      if (e.type === "content_block_delta") {
        const b = blocks[e.index];
        if (e.delta.type === "text_delta") b.text += e.delta.text;
        if (e.delta.type === "thinking_delta") b.thinking += e.delta.thinking;
        if (e.delta.type === "signature_delta") b.signature = e.delta.signature;
        if (e.delta.type === "input_json_delta") b.partial += e.delta.partial_json;
      }
    }
    const rebuilt = blocks.map(({ partial, ...b }) => (b.type === "tool_use" ? { ...b, input: JSON.parse(partial) } : b));
    expect(rebuilt).toEqual(json.content);
    expect(d[0].message.usage).toEqual({ ...json.usage, output_tokens: 1 });
    const delta = d.find((e: any) => e.type === "message_delta");
    expect(delta.delta).toEqual({ stop_reason: "tool_use", stop_sequence: null });
    expect(delta.usage.output_tokens).toBe(json.usage.output_tokens);
  });
});

describe("Chat Completions stream", () => {
  const reply = {
    role: "assistant",
    content: "Looking it up.",
    tool_calls: [{ id: "call_1", type: "function", function: { name: "get_ticket", arguments: '{"id":"T-17","fields":["status","owner","history"]}' } }],
  };
  const body = { model: "gpt-4o", messages: [{ role: "user", content: "status?" }] };

  it("chunks rebuild the message; include_usage adds a usage chunk with empty choices; ends with [DONE]", () => {
    const json = JSON.parse(call("/v1/chat/completions", body, reply, false).body);
    const d = data(call("/v1/chat/completions", { ...body, stream_options: { include_usage: true } }, reply, true));
    expect(d[d.length - 1]).toBe("[DONE]");
    const usageChunk = d[d.length - 2];
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage).toEqual(json.usage);
    const chunks = d.slice(0, -2);
    expect(chunks.every((c: any) => c.object === "chat.completion.chunk" && c.usage === null)).toBe(true);
    let content = "";
    const args: string[] = [];
    for (const c of chunks) {
      const delta = c.choices[0].delta;
      content += delta.content ?? "";
      for (const t of delta.tool_calls ?? []) args[t.index] = (args[t.index] ?? "") + t.function.arguments;
    }
    expect(content).toBe(json.choices[0].message.content);
    expect(args).toEqual([reply.tool_calls[0]!.function.arguments]);
    expect(chunks[chunks.length - 1].choices[0].finish_reason).toBe("tool_calls");
    const noUsage = data(call("/v1/chat/completions", body, reply, true));
    expect(noUsage.some((c: any) => c !== "[DONE]" && "usage" in c)).toBe(false);
  });
});

describe("Responses stream", () => {
  const reply = [
    { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "enc" },
    { type: "function_call", id: "fc_1", call_id: "c1", name: "get_weather", arguments: '{"city":"Lyon","unit":"celsius","days":3}' },
  ];
  const body = { model: "gpt-5-mini", input: "rain?" };

  it("numbers events in order, streams arguments and completes with the JSON response", () => {
    const json = JSON.parse(call("/v1/responses", body, reply, false).body);
    const r = call("/v1/responses", body, reply, true);
    const events = parseSse(r.body);
    const d = events.map((e) => JSON.parse(e.data));
    expect(d.map((e) => e.sequence_number)).toEqual(d.map((_, i) => i));
    expect(events.map((e) => e.event)).toEqual(d.map((e) => e.type));
    expect(d[0].type).toBe("response.created");
    expect(d[0].response.status).toBe("in_progress");
    const args = d.filter((e) => e.type === "response.function_call_arguments.delta").map((e) => e.delta).join("");
    expect(args).toBe(reply[1]!.arguments);
    const done = d[d.length - 1];
    expect(done.type).toBe("response.completed");
    expect({ ...done.response, id: json.id }).toEqual(json);
  });
});
