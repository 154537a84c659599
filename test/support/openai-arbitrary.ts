/**
 * fast-check generators of OpenAI Chat and Responses requests with tool pairs: tool results are a
 * string or 1–3 text/image parts with awkward text (emoji, quotes, escapes, long lines); call k
 * has id `call_<k>`, and the history ends with an assistant answer and a user message.
 */
import fc from "fast-check";

/** Result text: random graphemes or one of the awkward fixed strings. */
export const text = fc.oneof(fc.string({ unit: "grapheme", minLength: 1, maxLength: 300 }), fc.constantFrom("😀 emoji 👨‍👩‍👧", 'a"b\\c\nd\te', "line\n".repeat(40)));
const IMAGE = "data:image/png;base64,iVBORw0KGgo=";
const result = (partType: string, imageType: string, image: unknown) =>
  fc.oneof(text, fc.array(fc.oneof(text.map((t) => ({ type: partType, text: t })), fc.constant({ type: imageType, ...(image as object) })), { minLength: 1, maxLength: 3 }));
/** A Chat tool message `content`: a string or text/image_url parts. */
export const chatResult = result("text", "image_url", { image_url: { url: IMAGE } });
/** A Responses `function_call_output.output`: a string or input_text/input_image parts. */
export const respResult = result("input_text", "input_image", { image_url: IMAGE });

/** A Chat request body whose tool message k carries `results[k]`. */
export function chatBody(results: unknown[]): string {
  const messages: unknown[] = [{ role: "user", content: "go" }];
  results.forEach((r, k) => {
    messages.push({ role: "assistant", content: null, tool_calls: [{ id: `call_${k}`, type: "function", function: { name: "shell", arguments: "{}" } }] });
    messages.push({ role: "tool", tool_call_id: `call_${k}`, content: r });
  });
  messages.push({ role: "assistant", content: "ok" }, { role: "user", content: "next" });
  return JSON.stringify({ model: "gpt-4o", messages });
}

/** A Responses request body whose function_call_output k carries `results[k]`. */
export function respBody(results: unknown[]): string {
  const input: unknown[] = [{ role: "user", content: "go" }];
  results.forEach((r, k) => {
    input.push({ type: "function_call", call_id: `call_${k}`, name: "shell", arguments: "{}" });
    input.push({ type: "function_call_output", call_id: `call_${k}`, output: r });
  });
  input.push({ role: "assistant", content: "ok" }, { role: "user", content: "next" });
  return JSON.stringify({ model: "gpt-5", input });
}

