/**
 * Gateway-made error bodies in each provider's own error shape (pure), so clients' SDKs parse
 * them like any upstream error. Shapes: Anthropic `{"type":"error","error":{"type","message"}}`
 * (docs.anthropic.com/en/api/errors); OpenAI `{"error":{"message","type","param","code"}}`
 * (platform.openai.com/docs/guides/error-codes).
 */
export type ProviderFamily = "anthropic" | "openai";

/** JSON Response with `status`, the provider's error shape, `type`/`code` = `code`. */
export function providerError(family: ProviderFamily, status: number, code: string, message: string): Response {
  const body =
    family === "anthropic"
      ? { type: "error", error: { type: code, message } }
      : { error: { message, type: code, param: null, code } };
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}
