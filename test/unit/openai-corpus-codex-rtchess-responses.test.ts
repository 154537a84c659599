import { openaiResponsesAdapter } from "../../src/providers/openai-responses/index";
import { corpusSuite } from "./openai-corpus-suite";

corpusSuite("codex-rtchess-01-responses", openaiResponsesAdapter, "input", { stride: 3, fullPairs: 298, plans: 200, seed: 2394 });
