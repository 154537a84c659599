/**
 * Error bodies in each provider's real shape (pure). Anthropic:
 * `{"type":"error","error":{"type":...,"message":...}}` (docs: platform.claude.com/docs/en/api/errors);
 * OpenAI: `{"error":{"message","type","param","code"}}` (developers.openai.com/api/docs/guides/error-codes).
 */

/** A rejected request, as the emulator's validators report it. */
export type Rejection =
  | { api: "anthropic"; status: number; type: string; message: string }
  | { api: "openai"; status: number; type: string; message: string; param: string | null; code: string | null };

/** 400 invalid_request_error in Anthropic's shape. */
export function anthropicInvalid(message: string): Rejection {
  return { api: "anthropic", status: 400, type: "invalid_request_error", message };
}

/** 400 invalid_request_error in OpenAI's shape. */
export function openaiInvalid(message: string, param: string | null, code: string | null = null): Rejection {
  return { api: "openai", status: 400, type: "invalid_request_error", message, param, code };
}

/** The JSON body the real API sends for a rejection. */
export function rejectionBody(r: Rejection): unknown {
  switch (r.api) {
    case "anthropic":
      return { type: "error", error: { type: r.type, message: r.message } };
    case "openai":
      return { error: { message: r.message, type: r.type, param: r.param, code: r.code } };
    default: {
      const never: never = r;
      throw new Error(`unknown rejection ${JSON.stringify(never)}`);
    }
  }
}
