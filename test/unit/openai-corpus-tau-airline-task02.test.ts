import { openaiChatAdapter } from "../../src/providers/openai-chat/index";
import { corpusSuite } from "./openai-corpus-suite";

corpusSuite("tau-airline-gpt4o-task02", openaiChatAdapter, "messages", { stride: 1, fullPairs: 27, plans: 200, seed: 4575 });
