import { openaiChatAdapter } from "../../src/providers/openai-chat/index";
import { corpusSuite } from "./openai-corpus-suite";

corpusSuite("tau-airline-gpt4o-task09", openaiChatAdapter, "messages", { stride: 1, fullPairs: 23, plans: 200, seed: 7325 });
