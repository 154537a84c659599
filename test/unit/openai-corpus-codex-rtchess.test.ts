import { openaiChatAdapter } from "../../src/providers/openai-chat/index";
import { corpusSuite } from "./openai-corpus-suite";

corpusSuite("codex-rtchess-01", openaiChatAdapter, "messages", { stride: 3, fullPairs: 298, plans: 200, seed: 21773 });
