/**
 * One small agent exchange in the three wire formats, for the rewrite level's summary tests: the
 * assistant states a decision and lists the sources (pair 1), runs the tests, which fail (pair 2,
 * an error), edits a file (pair 3), then answers and the user speaks. Pair ids: Anthropic
 * `t1`..`t3`, Chat and Responses `call_1`..`call_3`.
 */
const DECISION = "Decision: check the sources first.";
const LS = '{\\"command\\":\\"ls src\\"}';
const TEST = '{\\"command\\":\\"npm test\\"}';
const EDIT = '{\\"file_path\\":\\"src/a.ts\\"}';
const FAIL = "Exit code: 1\\nError: src/a.ts:3 missing semicolon";

/** Anthropic Messages body. */
export const ANTHROPIC = `{"model":"claude-sonnet-4-5","max_tokens":100,"messages":[{"role":"user","content":"Fix the build"},{"role":"assistant","content":[{"type":"text","text":"${DECISION}"},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls src"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a.ts\\nb.ts"}]},{"role":"assistant","content":[{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"npm test"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":[{"type":"text","text":"${FAIL}"}],"is_error":true}]},{"role":"assistant","content":[{"type":"tool_use","id":"t3","name":"Edit","input":{"file_path":"src/a.ts"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t3","content":"ok"}]},{"role":"assistant","content":"Fixed."},{"role":"user","content":"thanks"},{"role":"assistant","content":"Anything else?"},{"role":"user","content":"no"}]}`;

/** OpenAI Chat Completions body. */
export const CHAT = `{"model":"gpt-4o","messages":[{"role":"user","content":"Fix the build"},{"role":"assistant","content":"${DECISION}","tool_calls":[{"id":"call_1","type":"function","function":{"name":"shell","arguments":"${LS}"}}]},{"role":"tool","tool_call_id":"call_1","content":"a.ts\\nb.ts"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_2","type":"function","function":{"name":"shell","arguments":"${TEST}"}}]},{"role":"tool","tool_call_id":"call_2","content":[{"type":"text","text":"${FAIL}"}]},{"role":"assistant","content":null,"tool_calls":[{"id":"call_3","type":"function","function":{"name":"edit","arguments":"${EDIT}"}}]},{"role":"tool","tool_call_id":"call_3","content":"ok"},{"role":"assistant","content":"Fixed."},{"role":"user","content":"thanks"},{"role":"assistant","content":"Anything else?"},{"role":"user","content":"no"}]}`;

/** OpenAI Responses body. */
export const RESPONSES = `{"model":"gpt-5","input":[{"role":"user","content":"Fix the build"},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"${DECISION}"}]},{"type":"function_call","call_id":"call_1","name":"shell","arguments":"${LS}"},{"type":"function_call_output","call_id":"call_1","output":"a.ts\\nb.ts"},{"type":"function_call","call_id":"call_2","name":"shell","arguments":"${TEST}"},{"type":"function_call_output","call_id":"call_2","output":"${FAIL}"},{"type":"function_call","call_id":"call_3","name":"edit","arguments":"${EDIT}"},{"type":"function_call_output","call_id":"call_3","output":"ok"},{"role":"assistant","content":"Fixed."},{"role":"user","content":"thanks"},{"role":"assistant","content":"Anything else?"},{"role":"user","content":"no"}]}`;
