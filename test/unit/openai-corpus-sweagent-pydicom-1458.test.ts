import { openaiChatAdapter } from "../../src/providers/openai-chat/index";
import { corpusSuite } from "./openai-corpus-suite";

corpusSuite("sweagent-gpt4-pydicom-1458", openaiChatAdapter, "messages", { stride: 1, fullPairs: 0, plans: 200, seed: 14782 });
